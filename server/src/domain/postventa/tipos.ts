/** The after-sale answers' shapes (wire: schemas/api/postventa.json), shared by the requests and their e-mails. */
import type { TipoTramite } from '../../db/repositories/tramites.ts';

export type { TipoTramite } from '../../db/repositories/tramites.ts';

/** A withdrawal or cancellation request as answered. */
export interface Tramite {
  codigo: string;
  tipo: TipoTramite;
  numSecuPol: string;
  /** The policy's state now (a baja followed by a withdrawal: ANULADA). */
  estado: 'ANULADA' | 'BAJA';
  /** YYYY-MM-DD: ANULADA from the start of the vigencia; BAJA from 24 h of that day (the day of the request). */
  fechaEfectiva: string;
  /** YYYY-MM-DD, only while a withdrawal is still possible (a BAJA inside the 10 days): its last day. */
  arrepentimientoHasta?: string;
}

/** What the tracking-code lookup shows: the request, when it was made (YYYY-MM-DD, Argentina) and where it stands. */
export interface ConsultaTramite extends Tramite {
  fecha: string;
}
