/**
 * /api/cotizacion/* — phone/DNI checks, lead and campaign records, the quote itself (cotizar) and the plan choice
 * (datos-presupuesto). Contract: schemas/api/README.md › Quote; schemas: schemas/api/cotizacion.json.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CampaniaNueva, ContactoNuevo } from '../../db/repositories/contactos.ts';
import { rateAll, ratePlan, resolveZone } from '../../domain/rating/engine.ts';
import { entradaDeRespuestas } from '../../domain/rating/entrada.ts';
import { textosDeTarifa } from '../../domain/rating/planes-guardados.ts';
import { validarDocumento, type TipoDocumento } from '../../domain/validation/documento.ts';
import { validarPrefijo, validarTelefono } from '../../domain/validation/telefono.ts';
import type { SolucionAntibot } from '../../domain/antibot/index.ts';
import { ApiError, MENSAJES, validationError } from '../../errors.ts';
import { erroresTelefono, priceOr400 } from '../checks.ts';
import { ratingInputDe, ref, requireCotizacion, requireLocalidad, responses } from '../shared.ts';

/**
 * The cotizar body (schemas/api/cotizacion.json#/$defs/CotizarBody: the home steps' answers). Fields beyond these
 * (e.g. a new question such as tieneAlarma, once the wire schema lets it in) are stored in `datos` and priced by the
 * tariff's rating dimensions that name them.
 */
interface CotizarBody {
  tipoVivienda: string;
  barrioCerrado?: string;
  titularidad: string;
  usoVivienda: string;
  metros: number;
  codLocalidad: string;
  idProvincia: string;
  /** Contact details: sent when the flow asked them before the price (optional in the request schema). */
  email?: string;
  areaCod?: string;
  phoneNumber?: string;
  initPolicyDate: string;
  /** The solved anti-bot challenge (routes/antibot): spent here, never stored nor priced. */
  antibot?: SolucionAntibot;
  [campo: string]: unknown;
}

/** Registers the quote routes (mounted at /api/cotizacion). */
export default async function cotizacionRoutes(app: FastifyInstance) {
  validacionRoutes(app);
  registroRoutes(app);
  app.post<{ Body: CotizarBody }>(
    '/cotizar',
    {
      // its per-minute request count rides in the statement that stores the quote (plugins/limits.ts)
      config: { limiteEnSentencia: true },
      schema: {
        tags: ['cotizacion'],
        summary: 'Cotiza los planes de la tarifa',
        body: ref('cotizacion', 'CotizarBody'),
        response: responses(ref('cotizacion', 'CotizarResponse')),
      },
    },
    (request) => cotizar(app, request),
  );
  app.post<{ Body: { refId: string; codPlan: string; coberturasOpcionales: string[] } }>(
    '/datos-presupuesto',
    {
      schema: {
        tags: ['cotizacion'],
        summary: 'Recotiza el plan elegido con sus coberturas opcionales y guarda la elección',
        body: ref('cotizacion', 'DatosPresupuestoBody'),
        response: responses(ref('cotizacion', 'DatosPresupuestoResponse')),
      },
    },
    async (request) => {
      const { refId, codPlan, coberturasOpcionales } = request.body;
      const cot = await requireCotizacion(app, refId, request);
      const plan = priceOr400(() => ratePlan(app.deps.tariff, ratingInputDe(cot), codPlan, coberturasOpcionales));
      await app.deps.repos.cotizaciones.guardarEleccion(refId, codPlan, coberturasOpcionales, plan);
      return { ...plan, refId, recotizado: true };
    },
  );
}

/** The field checks the steps call as the visitor types: area code, phone number (ENACOM plan), DNI/CUIT. */
function validacionRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { prefijo: string } }>(
    '/validar-prefijo',
    {
      schema: {
        tags: ['cotizacion'],
        querystring: ref('cotizacion', 'ValidarPrefijoQuery'),
        response: responses(ref('cotizacion', 'ValidarPrefijoResponse')),
      },
    },
    async (request) => validarPrefijo(request.query.prefijo, app.deps.lists.codigosArea),
  );
  app.post<{ Body: { areaCod: string; phoneNumber: string } }>(
    '/validar-telefono',
    { schema: { tags: ['cotizacion'], body: ref('cotizacion', 'ValidarTelefonoBody'), response: responses(ref('common', 'Validacion')) } },
    async (request) => validarTelefono(request.body.areaCod, request.body.phoneNumber, app.deps.lists.codigosArea),
  );
  app.post<{ Body: { typeDoc: TipoDocumento; numberDoc: string } }>(
    '/validar-dni',
    { schema: { tags: ['cotizacion'], body: ref('cotizacion', 'ValidarDniBody'), response: responses(ref('common', 'Validacion')) } },
    async (request) => validarDocumento(request.body.typeDoc, request.body.numberDoc),
  );
}

/** The lead (contact details left before the price) and campaign records. */
function registroRoutes(app: FastifyInstance) {
  app.post<{ Body: ContactoNuevo }>(
    '/info',
    { schema: { tags: ['cotizacion'], body: ref('cotizacion', 'InfoBody'), response: responses(ref('common', 'Ok')) } },
    async (request) => ({ ok: true, id: await app.deps.repos.contactos.insertContacto(request.body) }),
  );
  app.post<{ Body: CampaniaNueva }>(
    '/insertar-campa-solnoc',
    { schema: { tags: ['cotizacion'], body: ref('cotizacion', 'CampaniaBody'), response: responses(ref('common', 'Ok')) } },
    async (request) => ({ ok: true, id: await app.deps.repos.contactos.insertCampania(request.body) }),
  );
}

/**
 * POST /cotizar: the answers checked (phone, locality), the anti-bot proof spent, every plan priced and the quote stored
 * with its counts against the hourly limit (and, on PostgreSQL, the per-minute request limit), in one statement.
 * Returns the wire's CotizarResponse (refId, plans in ARS).
 * @throws ApiError 400 (field errors, anti-bot, a refused rating), 429 (hourly quote limit; per-minute request limit)
 */
async function cotizar(app: FastifyInstance, request: FastifyRequest<{ Body: CotizarBody }>) {
  const { antibot, ...b } = request.body;
  const { tariff, repos } = app.deps;
  const errors = erroresTelefono(app, b.areaCod, b.phoneNumber, '/areaCod', '/phoneNumber');
  if (errors.length > 0) throw validationError(errors);
  const loc = requireLocalidad(app, b.codLocalidad, b.idProvincia, '/codLocalidad');
  await verificarAntibot(app, request, antibot);
  // Hourly quote limit per IP, shared by all instances (429): counted in the statement that stores the quote (one
  // round trip; on PostgreSQL the per-minute request count too, plugins/limits.ts). A quote the tariff refuses counts
  // too, and past the limit the 429 comes first, as for any quote.
  let zona: string;
  let rated: ReturnType<typeof rateAll>;
  try {
    zona = resolveZone(tariff, loc);
    rated = priceOr400(() => rateAll(tariff, entradaDeRespuestas(b, { zona, provinciaId: loc.provinciaId })));
  } catch (err) {
    await app.cupoCotizaciones.consumir(request);
    throw err;
  }
  const { planes, inspection } = rated;
  const refId = randomUUID();
  const cotizacion = {
    refId,
    sesion: request.sesion,
    ip: request.ip,
    tarifaVersion: tariff.version,
    datos: b,
    tipoVivienda: b.tipoVivienda,
    barrioCerrado: b.barrioCerrado ?? null,
    titularidad: b.titularidad,
    usoVivienda: b.usoVivienda,
    metros: b.metros,
    codLocalidad: b.codLocalidad,
    idProvincia: b.idProvincia,
    zona,
    email: b.email ?? null,
    areaCod: b.areaCod ?? null,
    phoneNumber: b.phoneNumber ?? null,
    initPolicyDate: b.initPolicyDate,
    inspection,
    planes,
    textos: textosDeTarifa(tariff),
  };
  await app.cupoCotizaciones.guardar(request, (cupos) => repos.cotizaciones.insertConCupos(cotizacion, cupos));
  app.deps.metrics.cotizaciones.inc({ origen: 'cotizar' });
  return {
    refId,
    tarifaVersion: tariff.version,
    initPolicyDate: b.initPolicyDate,
    inspection,
    zona: { codigo: zona, descripcion: tariff.zonas[zona].descripcion },
    planes,
  };
}

/**
 * The anti-bot proof of work, once the answers are known good: a visitor who mistyped does not spend a solution.
 * @throws ApiError 400 with the Spanish message when it is on and the proof is missing or invalid (the form keeps the
 *   answers; a retry solves anew)
 */
async function verificarAntibot(app: FastifyInstance, request: FastifyRequest, antibot: SolucionAntibot | undefined) {
  if (!app.antibot.activo) return;
  const r = await app.antibot.verificar(antibot);
  if (r.ok) return;
  request.log.info({ antibot: r.motivo }, 'cotizar sin prueba de trabajo válida');
  throw new ApiError(400, 'VALIDACION', MENSAJES.ANTIBOT_INVALIDO, [{ field: '/antibot', message: MENSAJES.ANTIBOT_INVALIDO }]);
}
