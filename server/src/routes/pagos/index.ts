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
      const b = request.body;
      await requireCotizacion(app, b.refId, request);
      const { repos, vault } = app.deps;
      const id = randomUUID();
      if (b.methodPayment === 'TC') {
        const tarjeta = validarTarjeta(b.numberPaymentCard!);
        if (!tarjeta.valido) return { ...tarjeta, campo: 'numberPaymentCard' };
        const titular = validarTitular(b.namePaymentCard!);
        if (!titular.valido) return { ...titular, campo: 'namePaymentCard' };
        const vencimiento = validarVencimiento(b.expirationPaymentCard!, hoyArgentina());
        if (!vencimiento.valido) return { ...vencimiento, campo: 'expirationPaymentCard' };
        const numero = digits(b.numberPaymentCard!);
        const ultimos4 = numero.slice(-4);
        const medioPago = {
          id,
          tipo: 'TC' as const,
          marca: tarjeta.marca,
          descripcion: `${tarjeta.nombreMarca} terminada en ${ultimos4}`,
          mascara: `•••• ${ultimos4}`,
        };
        await repos.mediosPago.insert({
          ...medioPago,
          refId: b.refId,
          bancoCodigo: null,
          ultimos4,
          titular: b.namePaymentCard!.trim(),
          vencimiento: b.expirationPaymentCard!.trim(),
          numeroCifrado: vault.encrypt(numero),
        });
        return { valido: true, medioPago };
      }
      const cbu = validarCbu(b.numberCBU!, lists.bancos);
      if (!cbu.valido) return { ...cbu, campo: 'numberCBU' };
      const numero = digits(b.numberCBU!);
      const ultimos4 = numero.slice(-4);
      const medioPago = {
        id,
        tipo: 'CBU' as const,
        descripcion: `CBU ${cbu.banco.nombre} terminada en ${ultimos4}`,
        mascara: `•••• ${ultimos4}`,
      };
      await repos.mediosPago.insert({
        ...medioPago,
        refId: b.refId,
        marca: null,
        bancoCodigo: cbu.banco.codigo,
        ultimos4,
        titular: null,
        vencimiento: null,
        numeroCifrado: vault.encrypt(numero),
      });
      return { valido: true, medioPago };
    },
  );
}
