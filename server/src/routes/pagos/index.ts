/**
 * /api/pagos/* — card and CBU checks, and tokenisation of the payment method (validar-forma-cobro): the number is
 * stored only encrypted (AES-256-GCM, domain/pagos/vault.ts) with its masked form; later steps use `medioPago.id`.
 * Contract: schemas/api/README.md › Payment.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { validarCbu } from '../../domain/validation/cbu.ts';
import { hoyArgentina } from '../../domain/validation/fechas.ts';
import { validarTarjeta, validarTitular, validarVencimiento } from '../../domain/validation/tarjeta.ts';
import type { MedioPago } from '../../db/repositories/medios-pago.ts';
import { ref, requireCotizacion, responses } from '../shared.ts';

interface MedioPagoBody {
  methodPayment: 'TC' | 'CBU';
  numberPaymentCard?: string;
  numberCBU?: string;
}

interface FormaCobroBody extends MedioPagoBody {
  refId: string;
  namePaymentCard?: string;
  expirationPaymentCard?: string;
}

/** Only digits (users paste numbers with spaces or dashes). */
const digits = (s: string) => s.replace(/\D/g, '');

/** Registers the payment routes (mounted at /api/pagos). */
export default async function pagosRoutes(app: FastifyInstance) {
  const { lists } = app.deps;

  app.post<{ Body: MedioPagoBody }>(
    '/validar-medio-pago',
    {
      schema: {
        tags: ['pagos'],
        body: ref('pagos', 'ValidarMedioPagoBody'),
        response: responses(ref('pagos', 'ValidarMedioPagoResponse')),
      },
    },
    async (request) => {
      const b = request.body;
      if (b.methodPayment === 'CBU') return validarCbu(b.numberCBU!, lists.bancos);
      const r = validarTarjeta(b.numberPaymentCard!);
      return r.valido ? { valido: true, marca: r.marca } : r;
    },
  );

  app.post<{ Body: { numberCBU: string } }>(
    '/es-cbu-valido',
    { schema: { tags: ['pagos'], body: ref('pagos', 'EsCbuValidoBody'), response: responses(ref('pagos', 'CbuResponse')) } },
    async (request) => validarCbu(request.body.numberCBU, lists.bancos),
  );

  app.post<{ Body: { refId: string; numberCBU: string } }>(
    '/validar-cbu',
    { schema: { tags: ['pagos'], body: ref('pagos', 'ValidarCbuBody'), response: responses(ref('pagos', 'CbuResponse')) } },
    async (request) => {
      await requireCotizacion(app, request.body.refId, request);
      return validarCbu(request.body.numberCBU, lists.bancos);
    },
  );

  app.post<{ Body: FormaCobroBody }>(
    '/validar-forma-cobro',
    {
      schema: {
        tags: ['pagos'],
        summary: 'Valida y tokeniza el medio de pago',
        body: ref('pagos', 'ValidarFormaCobroBody'),
        response: responses(ref('pagos', 'ValidarFormaCobroResponse')),
      },
    },
    async (request) => {
      await requireCotizacion(app, request.body.refId, request);
      return request.body.methodPayment === 'TC' ? tokenizarTarjeta(app, request.body) : tokenizarCbu(app, request.body);
    },
  );
}

/**
 * Checks a card (number, holder, expiry against today in Argentina) and, when valid, stores it encrypted with its
 * masked form. @returns `{ valido: true, medioPago }` (id, marca, descripcion, mascara), or the first failed check with
 * the `campo` it names
 */
async function tokenizarTarjeta(app: FastifyInstance, b: FormaCobroBody) {
  const tarjeta = validarTarjeta(b.numberPaymentCard!);
  if (!tarjeta.valido) return { ...tarjeta, campo: 'numberPaymentCard' };
  const titular = validarTitular(b.namePaymentCard!);
  if (!titular.valido) return { ...titular, campo: 'namePaymentCard' };
  const vencimiento = validarVencimiento(b.expirationPaymentCard!, hoyArgentina());
  if (!vencimiento.valido) return { ...vencimiento, campo: 'expirationPaymentCard' };
  const medioPago = await guardarMedioPago(app, b.refId, digits(b.numberPaymentCard!), {
    tipo: 'TC',
    marca: tarjeta.marca,
    bancoCodigo: null,
    descripcion: `${tarjeta.nombreMarca} terminada en`,
    titular: b.namePaymentCard!.trim(),
    vencimiento: b.expirationPaymentCard!.trim(),
  });
  return {
    valido: true,
    medioPago: {
      id: medioPago.id,
      tipo: 'TC' as const,
      marca: tarjeta.marca,
      descripcion: medioPago.descripcion,
      mascara: medioPago.mascara,
    },
  };
}

/**
 * Checks a CBU (check digits, known bank) and, when valid, stores it encrypted with its masked form.
 * @returns `{ valido: true, medioPago }` (id, descripcion with the bank's name, mascara), or the failed check with `campo`
 */
async function tokenizarCbu(app: FastifyInstance, b: FormaCobroBody) {
  const cbu = validarCbu(b.numberCBU!, app.deps.lists.bancos);
  if (!cbu.valido) return { ...cbu, campo: 'numberCBU' };
  const medioPago = await guardarMedioPago(app, b.refId, digits(b.numberCBU!), {
    tipo: 'CBU',
    marca: null,
    bancoCodigo: cbu.banco.codigo,
    descripcion: `CBU ${cbu.banco.nombre} terminada en`,
    titular: null,
    vencimiento: null,
  });
  return {
    valido: true,
    medioPago: { id: medioPago.id, tipo: 'CBU' as const, descripcion: medioPago.descripcion, mascara: medioPago.mascara },
  };
}

/**
 * Stores a checked payment method of quote `refId` under a new id: the number (digits only) encrypted with the vault,
 * its last 4 digits, and the masked forms the later steps show («<descripcion> 1234», «•••• 1234»).
 * @param datos what the row records besides the number; `descripcion` without the last 4 digits
 * @returns the new id, the full description and the mask
 */
async function guardarMedioPago(
  app: FastifyInstance,
  refId: string,
  numero: string,
  datos: Pick<MedioPago, 'tipo' | 'marca' | 'bancoCodigo' | 'titular' | 'vencimiento' | 'descripcion'>,
): Promise<{ id: string; descripcion: string; mascara: string }> {
  const ultimos4 = numero.slice(-4);
  const guardado = { id: randomUUID(), descripcion: `${datos.descripcion} ${ultimos4}`, mascara: `•••• ${ultimos4}` };
  await app.deps.repos.mediosPago.insert({ ...datos, ...guardado, refId, ultimos4, numeroCifrado: app.deps.vault.encrypt(numero) });
  return guardado;
}
