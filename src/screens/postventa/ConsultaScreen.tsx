/**
 * Tracking-code lookup (route RUTA_CONSULTA_TRAMITE): the visitor types the código de seguimiento of a
 * withdrawal or cancellation plus the holder's DNI or e-mail (so codes cannot be tried one after another), and sees the
 * request's type, policy, date, state and effective date. The rules (formats, matching without telling an unknown code
 * from a wrong DNI, limits) live in the form's schema and on the server: the form is the flow's standalone form
 * `consulta` (flow.json › forms: schemas/consulta-tramite.schema.json, texts es.json › consulta-tramite.fields),
 * rendered by StepForm and sent through its call (POST /api/postventa/consulta, schemas/api/postventa.json ›
 * ConsultaBody/ConsultaResponse); the server's field errors go on the fields, anything else above the form.
 * Texts: src/i18n/es.json › postventa.consulta.*, legal.bajaRige (the baja's one effective-date sentence).
 */
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PaginaSimple } from '../../app/Legal';
import type { FlowEngine } from '../../engine/model';
import { formatDateAr } from '../../core/dates.ts';
import { ArrepentimientoAbierto, FormularioPostventa } from './partes';
import { useStandaloneForm } from './useStandaloneForm';

/** POST /api/postventa/consulta's answer. */
interface Consulta {
  codigo: string;
  tipo: 'ARREPENTIMIENTO' | 'BAJA';
  numSecuPol: string;
  estado: 'ANULADA' | 'BAJA';
  fechaEfectiva: string;
  arrepentimientoHasta?: string;
  fecha: string;
}

/** The request's state as the holder reads it (a baja followed by a withdrawal is void). */
const claveEstado = (c: Consulta) => (c.tipo === 'ARREPENTIMIENTO' ? 'ARREPENTIMIENTO' : c.estado === 'ANULADA' ? 'BAJA_ANULADA' : 'BAJA');

/** The lookup page: the form, then what was found (focus moves to each one's title). */
export function ConsultaScreen({ engine }: { engine: FlowEngine }) {
  const { t } = useTranslation();
  const { result: hallado, ...estado } = useStandaloneForm<Consulta>(engine, 'consulta');
  const titulo = useRef<HTMLHeadingElement>(null);
  useEffect(() => titulo.current?.focus(), [hallado]);

  if (hallado) return <ConsultaHallada hallado={hallado} titulo={titulo} otra={estado.reset} />;
  return (
    <FormularioPostventa
      titulo={titulo}
      encabezado={t('postventa.consulta.titulo')}
      bajada={t('postventa.consulta.bajada')}
      estado={estado}
      submitLabel={estado.sending ? t('postventa.consulta.buscando') : t('postventa.consulta.cta')}
    />
  );
}

/** What a lookup found: type, policy, date, state and effective date of the request; «look up another» goes back. */
function ConsultaHallada({ hallado, titulo, otra }: { hallado: Consulta; titulo: RefObject<HTMLHeadingElement | null>; otra: () => void }) {
  const { t } = useTranslation();
  const fila = (dt: string, dd: string, testid: string) => (
    <div className="review__row">
      <dt>{dt}</dt>
      <dd data-testid={testid}>{dd}</dd>
    </div>
  );
  const efectiva = formatDateAr(hallado.fechaEfectiva);
  return (
    <PaginaSimple>
      <section className="result" data-testid="consulta-resultado">
        <h1 className="result__title" tabIndex={-1} ref={titulo}>
          {t('postventa.consulta.resultadoTitulo', { codigo: hallado.codigo })}
        </h1>
        <dl className="review__rows consulta__datos">
          {fila(t('postventa.consulta.tipo'), t(`postventa.consulta.tipos.${hallado.tipo}`), 'consulta-tipo')}
          {fila(t('postventa.consulta.poliza'), hallado.numSecuPol, 'consulta-poliza')}
          {fila(t('postventa.consulta.fecha'), formatDateAr(hallado.fecha), 'consulta-fecha')}
          {fila(t('postventa.consulta.estado'), t(`postventa.consulta.estados.${claveEstado(hallado)}`), 'consulta-estado')}
          {fila(
            t('postventa.consulta.fechaEfectiva'),
            t(hallado.tipo === 'ARREPENTIMIENTO' ? 'postventa.consulta.efectivaArrepentimiento' : 'postventa.consulta.efectivaBaja', {
              fecha: efectiva,
            }),
            'consulta-efectiva',
          )}
        </dl>
        {hallado.tipo === 'BAJA' && hallado.estado === 'BAJA' && (
          <p className="result__lead" data-testid="baja-rige">
            {t('legal.bajaRige', { fecha: efectiva })}
          </p>
        )}
        <ArrepentimientoAbierto hasta={hallado.arrepentimientoHasta} />
        <div className="result__actions">
          <button type="button" className="button button--ghost" onClick={otra}>
            {t('postventa.consulta.otra')}
          </button>
          <Link className="button button--primary" to="/">
            {t('postventa.volverInicio')}
          </Link>
        </div>
      </section>
    </PaginaSimple>
  );
}
