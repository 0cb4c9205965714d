/**
 * Withdrawal (botón de arrepentimiento: CCyC art. 1110, Ley 24.240 art. 34 — within 10 calendar days of the
 * purchase, Argentina time; the policy becomes ANULADA) and cancellation (botón de baja: Ley 24.240 art. 10 ter,
 * Res. SSN 360/2024 mod. 435/2025, Disp. SSDCyLC 954/2025 — BAJA from 24 h of the day of the request, Argentina time:
 * no more debits, the unearned premium is refunded) requests, answered with a tracking code the holder can look up
 * with their DNI or e-mail. A baja does not take away a withdrawal still inside its 10 days: it is accepted after the
 * baja and the policy becomes ANULADA.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { correosRepository } from '../../db/repositories/correos.ts';
import { polizasRepository } from '../../db/repositories/polizas.ts';
import { tramitesRepository, type TipoTramite } from '../../db/repositories/tramites.ts';
import { ApiError, notFound } from '../../errors.ts';
import { hoyArgentina, sumarDias } from '../validation/fechas.ts';
import { correoTramite } from './correos.ts';
import { texto } from './textos.ts';
import type { ConsultaTramite, Tramite } from './tipos.ts';

export type { ConsultaTramite, TipoTramite, Tramite } from './tipos.ts';

/** Days a withdrawal may be asked after the purchase (CCyC art. 1110). */
export const DIAS_ARREPENTIMIENTO = 10;

/** Last day (YYYY-MM-DD) a policy issued on `emitida` (YYYY-MM-DD, Argentina) may be withdrawn. */
export const ultimoDiaArrepentimiento = (emitida: string) => sumarDias(emitida, DIAS_ARREPENTIMIENTO);

const e = (k: string) => texto(`servidor.postventa.${k}`);
const CODIGO_ALFABETO = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A tracking code: prefix + 10 random characters without look-alikes (50 bits), e.g. "ARR-7K3M9Q2XHD". */
export function codigoSeguimiento(tipo: TipoTramite): string {
  const bytes = randomBytes(10);
  return `${tipo === 'ARREPENTIMIENTO' ? 'ARR' : 'BAJ'}-${[...bytes].map((b) => CODIGO_ALFABETO[b % 32]).join('')}`;
}

/**
 * A request as answered: the policy's state now, and the last day of the withdrawal while a BAJA still allows it.
 * @param estado the policy's state (VIGENTE cannot occur once a request exists) @param hasta last withdrawal day
 */
function respuesta(
  codigo: string,
  tipo: TipoTramite,
  numSecuPol: string,
  estado: string,
  fechaEfectiva: string,
  hasta: string,
  hoy: string,
): Tramite {
  const r: Tramite = { codigo, tipo, numSecuPol, estado: estado === 'ANULADA' ? 'ANULADA' : 'BAJA', fechaEfectiva };
  if (r.estado === 'BAJA' && hasta >= hoy) r.arrepentimientoHasta = hasta;
  return r;
}

export interface TramitesOptions {
  db: Db;
  /** Public base URL of the site for the lookup link in the confirmation e-mail, without trailing slash. */
  publicUrl: string;
  /** Called once a NEW withdrawal or cancellation is committed (not for a repeated request; metrics). */
  alRegistrarTramite?: (tipo: TipoTramite) => void;
}

/** The withdrawal and cancellation buttons and the tracking-code lookup over the database. */
export function createTramites(opts: TramitesOptions) {
  const { db } = opts;
  return {
    /**
     * Records a withdrawal or cancellation when number, DNI and e-mail match one policy, changes its state and
     * queues the confirmation to the policy's e-mail of record (with the tracking code, how to look it up and how to
     * object if the holder did not ask for it). Asking again returns the same tracking code (no second e-mail).
     * A withdrawal is accepted until {@link ultimoDiaArrepentimiento} even after a baja: the policy becomes ANULADA.
     * @throws ApiError 404 — the same answer for an unknown policy and for data that do not match (no enumeration);
     *   409 when the 10 days passed (withdrawal) or the policy already ended (ANULADA; or BAJA, for a baja)
     */
    async tramite(tipo: TipoTramite, datos: { numSecuPol: string; dni: string; email: string }): Promise<Tramite> {
      let nuevo = false;
      const t = await db.transaction(async (tx): Promise<Tramite> => {
        const polizas = polizasRepository(tx);
        const tramites = tramitesRepository(tx);
        const p = await polizas.bloquearParaTramite(datos.numSecuPol.trim().toUpperCase(), datos.dni, datos.email.trim());
        if (!p) throw notFound(e('noEncontrada'));
        const hoy = hoyArgentina();
        const hasta = ultimoDiaArrepentimiento(p.emitida);
        const previo = await tramites.previo(p.numSecuPol, tipo);
        if (previo) return respuesta(previo.codigo, tipo, p.numSecuPol, p.estado, previo.fecha, hasta, hoy);
        if (p.estado === 'ANULADA') throw new ApiError(409, 'CONFLICTO', e('yaAnulada'));
        if (tipo === 'ARREPENTIMIENTO' && hasta < hoy)
          throw new ApiError(409, 'CONFLICTO', e(p.estado === 'BAJA' ? 'yaDadaDeBaja' : 'plazoVencido'));
        const estado = tipo === 'ARREPENTIMIENTO' ? 'ANULADA' : 'BAJA';
        const fechaEfectiva = tipo === 'ARREPENTIMIENTO' ? p.desde : hoy;
        const codigo = codigoSeguimiento(tipo);
        await tramites.insertar(codigo, tipo, p.numSecuPol, fechaEfectiva);
        await polizas.cambiarEstado(p.numSecuPol, estado, fechaEfectiva);
        const r = respuesta(codigo, tipo, p.numSecuPol, estado, fechaEfectiva, hasta, hoy);
        // to the policy's e-mail of record (the request's e-mail only had to match it)
        await correosRepository(tx).encolar(correoTramite(opts.publicUrl, r, p.persona, hoy));
        nuevo = true;
        return r;
      });
      if (nuevo) opts.alRegistrarTramite?.(tipo);
      return t;
    },

    /**
     * The tracking-code lookup: the request `codigo` when `dniOEmail` is the holder's DNI (digits; dots and spaces
     * ignored) or e-mail (case-insensitive).
     * @throws ApiError 404 — the same answer for an unknown code and for a DNI/e-mail that does not match
     */
    async consulta(codigo: string, dniOEmail: string): Promise<ConsultaTramite> {
      const dato = dniOEmail.trim();
      const esEmail = dato.includes('@');
      const t = await tramitesRepository(db).consultar(codigo.trim().toUpperCase(), esEmail ? dato : dato.replace(/[\s.]/g, ''), esEmail);
      if (!t) throw notFound(e('tramiteNoEncontrado'));
      return {
        ...respuesta(t.codigo, t.tipo, t.numSecuPol, t.estado, t.fechaEfectiva, ultimoDiaArrepentimiento(t.emitida), hoyArgentina()),
        fecha: t.fecha,
      };
    },
  };
}
