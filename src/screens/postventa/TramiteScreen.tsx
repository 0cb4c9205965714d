/**
 * Botón de arrepentimiento / botón de baja: policy number + DNI + e-mail, no account. The form is a standalone form
 * of the flow (flow.json › forms.<tipo>): rendered by StepForm from its schema (schemas/tramite.schema.json, texts
 * es.json › tramite.fields) and sent through the call the flow declares for it. The rules (formats, the 10 days,
 * matching without revealing whether a policy exists) are the schema's and the server's (schemas/api/postventa.json,
 * server/src/domain/postventa): its field errors are shown on the fields, anything else above the form. On success
 * the tracking code is shown, with a link to look it up. The baja's effective date and what happens to the money are
 * said with the one text legal.bajaRige (on the form with today's date, on the result with the server's date), and a
 * baja inside the 10 days says until when the withdrawal is still open. Texts: src/i18n/es.json › postventa.*, legal.*.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PaginaSimple } from '../../app/Legal';
import type { FlowEngine } from '../../engine/model';
import { formatDateAr, hoyArgentina } from '../../core/dates.ts';
import { Icon } from '../../form/widgets/Icon';
import { RUTA_CONSULTA_TRAMITE, type TipoPostventa } from '../../core/rutas.ts';
import { ArrepentimientoAbierto, FormularioPostventa } from './partes';
import { useStandaloneForm } from './useStandaloneForm';

interface Tramite {
  codigo: string;
  numSecuPol: string;
  fechaEfectiva: string;
  arrepentimientoHasta?: string;
}

/** The withdrawal or cancellation page (`tipo`): the form, then the tracking code (focus moves to each one's title). */
export function TramiteScreen({ tipo, engine }: { tipo: TipoPostventa; engine: FlowEngine }) {
  const { t } = useTranslation();
  const { result: hecho, ...estado } = useStandaloneForm<Tramite>(engine, tipo);
  const titulo = useRef<HTMLHeadingElement>(null);
  useEffect(() => titulo.current?.focus(), [hecho]);

  if (hecho) return <TramiteListo tipo={tipo} hecho={hecho} titulo={titulo} />;
  return (
    <FormularioPostventa
      titulo={titulo}
      encabezado={t(`postventa.${tipo}.titulo`)}
      bajada={t(`postventa.${tipo}.bajada`)}
      aviso={
        tipo === 'baja' && (
          <div className="banner banner--info" data-testid="baja-rige">
            <Icon name="alerta" />
            <div>
              <p className="banner__p">
                <strong>{t('postventa.baja.rigeHoy')}</strong> {t('legal.bajaRige', { fecha: formatDateAr(hoyArgentina()) })}
              </p>
              <p className="banner__p">{t('legal.bajaArrepentimiento')}</p>
            </div>
          </div>
        )
      }
      estado={estado}
      formKey={tipo}
      submitLabel={estado.sending ? t('postventa.enviando') : t(`postventa.${tipo}.cta`)}
      pie={<p className="note">{t(tipo === 'baja' ? 'legal.bajaDerecho' : 'legal.arrepentimiento')}</p>}
    />
  );
}

/** The request is recorded: its effective date, the tracking code and a link to look it up. */
function TramiteListo({ tipo, hecho, titulo }: { tipo: TipoPostventa; hecho: Tramite; titulo: RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation();
  return (
    <PaginaSimple>
      <section className="result result--success" data-testid="tramite-listo">
        <span className="result__icon">
          <Icon name="check" />
        </span>
        <h1 className="result__title" tabIndex={-1} ref={titulo}>
          {t(`postventa.${tipo}.listoTitulo`)}
        </h1>
        <p className="result__lead">
          {t(`postventa.${tipo}.listoBajada`, { numSecuPol: hecho.numSecuPol, fecha: formatDateAr(hecho.fechaEfectiva) })}
        </p>
        {tipo === 'baja' && (
          <p className="result__lead" data-testid="baja-rige">
            {t('legal.bajaRige', { fecha: formatDateAr(hecho.fechaEfectiva) })}
          </p>
        )}
        <ArrepentimientoAbierto hasta={hecho.arrepentimientoHasta} />
        <dl className="result__data">
          <div className="review__row">
            <dt>{t('postventa.codigo')}</dt>
            <dd data-testid="codigo">{hecho.codigo}</dd>
          </div>
        </dl>
        <p className="note">{t('postventa.codigoAyuda')}</p>
        <div className="result__actions">
          <Link className="button button--ghost" to={RUTA_CONSULTA_TRAMITE}>
            {t('postventa.consultarTramite')}
          </Link>
          <Link className="button button--primary" to="/">
            {t('postventa.volverInicio')}
          </Link>
        </div>
      </section>
    </PaginaSimple>
  );
}
