/**
 * After the sale: the policy document (made once and kept), the policy and quote e-mails (queued in the outbox),
 * resumable quotes behind signed links, and the withdrawal and cancellation requests with their tracking-code lookup.
 * `createPostventa` wires the four parts over one database:
 * - documentos.ts — policy and quote PDFs, the policy's download token, outbox attachments;
 * - correos.ts    — the e-mails' contents (pure builders);
 * - retomar.ts    — "Enviarme la cotización" and its resume link;
 * - tramites.ts   — botón de arrepentimiento, botón de baja and the lookup (the laws they follow are listed there).
 * Texts: src/i18n/es.json › servidor.postventa.*, legal.*.
 */
import type { Db, Queryable } from '../../db/index.ts';
import { correosRepository } from '../../db/repositories/correos.ts';
import { polizasRepository } from '../../db/repositories/polizas.ts';
import type { Catalogos } from '../listas/catalogos.ts';
import type { Lists } from '../listas/index.ts';
import type { RevalidarFechas } from '../../plugins/revalidar.ts';
import type { Tariff } from '../rating/tariff.ts';
import { correoPoliza } from './correos.ts';
import { createDocumentos } from './documentos.ts';
import { createRetomar } from './retomar.ts';
import type { TipoTramite } from './tipos.ts';
import type { Tokens } from './tokens.ts';
import { createTramites } from './tramites.ts';

export type { ConsultaTramite, TipoTramite, Tramite } from './tipos.ts';
export { PARAMETRO_RETOMAR } from './retomar.ts';

export interface PostventaOptions {
  db: Db;
  tariff: Tariff;
  lists: Lists;
  /** The flow's catalogues (descriptions of the answers in the quote PDF). */
  catalogos: Catalogos;
  tokens: Tokens;
  /** Public base URL of the site for links in e-mails (env PUBLIC_URL), without trailing slash. */
  publicUrl: string;
  /** Called once a NEW withdrawal or cancellation is committed (not for a repeated request; metrics). */
  alRegistrarTramite?: (tipo: TipoTramite) => void;
  /** Today's date keywords over stored answers (plugins/revalidar.ts): a resumed quote's start date is checked again. */
  revalidarFechas: RevalidarFechas;
}

/** The after-sale service over the database (`app.postventa`). */
export function createPostventa(opts: PostventaOptions) {
  const documentos = createDocumentos(opts);
  return {
    ...documentos,
    ...createRetomar(opts),
    ...createTramites(opts),
    /**
     * Queues the policy e-mail (correos.ts › correoPoliza) in transaction `tx` — call it where the policy is
     * recorded; the download link is signed for 30 days. Nothing when the policy does not exist.
     */
    async encolarCorreoPoliza(tx: Queryable, numSecuPol: string): Promise<void> {
      const d = await polizasRepository(tx).datos(numSecuPol);
      if (!d) return;
      const enlace = `${opts.publicUrl}/api/documentos/poliza/${documentos.tokenPoliza(numSecuPol)}`;
      await correosRepository(tx).encolar(correoPoliza(opts.publicUrl, d, enlace));
    },
  };
}
export type Postventa = ReturnType<typeof createPostventa>;
