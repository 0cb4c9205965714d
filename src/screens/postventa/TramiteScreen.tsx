/**
 * Botón de arrepentimiento / botón de baja (issue 8): policy number + DNI + e-mail, no account. The rules (formats,
 * the 10 days, matching without revealing whether a policy exists) live on the server (schemas/api/postventa.json,
 * server/src/domain/postventa): its field errors are shown on the fields, anything else above the form. On success
 * the tracking code is shown, with a link to look it up. The baja's effective date and what happens to the money are
 * said with the one text legal.bajaRige (on the form with today's date, on the result with the server's date), and a
 * baja inside the 10 days says until when the withdrawal is still open. Texts: src/i18n/es.json › postventa.*, legal.*.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CamposPostventa, type CampoPostventa } from './CamposPostventa';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { api } from '../../api/instance';
import { PaginaSimple } from '../../app/Legal';
import { formatDateAr, hoyArgentina } from '../../core/dates';
import { Icon } from '../../form/widgets/Icon';
import { RUTA_CONSULTA_TRAMITE, RUTAS_POSTVENTA, type TipoPostventa } from '../../core/rutas';

interface Tramite {
  codigo: string;
  numSecuPol: string;
  fechaEfectiva: string;
  arrepentimientoHasta?: string;
}

const CAMPOS: CampoPostventa[] = [
  { name: 'numSecuPol', autoComplete: 'off', inputMode: 'text' },
  { name: 'dni', autoComplete: 'off', inputMode: 'numeric' },
  { name: 'email', autoComplete: 'email', inputMode: 'email', type: 'email' },
];

export function TramiteScreen({ tipo }: { tipo: TipoPostventa }) {
  const { t } = useTranslation();
  const [valores, setValores] = useState<Record<string, string>>({ numSecuPol: '', dni: '', email: '' });
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const [hecho, setHecho] = useState<Tramite | null>(null);
  const titulo = useRef<HTMLHeadingElement>(null);
  useEffect(() => titulo.current?.focus(), [hecho]);

  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    const faltan = Object.fromEntries(CAMPOS.filter((c) => !valores[c.name].trim()).map((c) => [c.name, t(`postventa.formulario.errores.${c.name}`)]));
    setErrores(faltan);
    setBanner(null);
    if (Object.keys(faltan).length) return;
    setEnviando(true);
    try {
      const body = { numSecuPol: valores.numSecuPol.trim().toUpperCase(), dni: valores.dni.replace(/\D/g, ''), email: valores.email.trim() };
      setHecho((await api.post(`/postventa/${tipo}`, body)) as Tramite);
    } catch (err) {
      const fields = err instanceof ApiError ? Object.fromEntries(err.errors.map((f) => [f.field.replace(/^\//, ''), f.message])) : {};
      setErrores(fields);
      setBanner(Object.keys(fields).length ? null : (err as Error).message || t('errors.generic'));
    } finally {
      setEnviando(false);
    }
  };

  if (hecho) {
    return (
      <PaginaSimple>
        <section className="result result--success" data-testid="tramite-listo">
          <span className="result__icon"><Icon name="check" /></span>
          <h1 className="result__title" tabIndex={-1} ref={titulo}>{t(`postventa.${tipo}.listoTitulo`)}</h1>
          <p className="result__lead">{t(`postventa.${tipo}.listoBajada`, { numSecuPol: hecho.numSecuPol, fecha: formatDateAr(hecho.fechaEfectiva) })}</p>
          {tipo === 'baja' && <p className="result__lead" data-testid="baja-rige">{t('legal.bajaRige', { fecha: formatDateAr(hecho.fechaEfectiva) })}</p>}
          {hecho.arrepentimientoHasta && (
            <p className="result__lead">
              {t('legal.bajaArrepentimientoHasta', { hasta: formatDateAr(hecho.arrepentimientoHasta) })}{' '}
              <Link to={RUTAS_POSTVENTA.arrepentimiento}>{t('legal.botones.arrepentimiento')}</Link>
            </p>
          )}
          <dl className="result__data">
            <div className="review__row">
              <dt>{t('postventa.codigo')}</dt>
              <dd data-testid="codigo">{hecho.codigo}</dd>
            </div>
          </dl>
          <p className="note">{t('postventa.codigoAyuda')}</p>
          <div className="result__actions">
            <Link className="button button--ghost" to={RUTA_CONSULTA_TRAMITE}>{t('postventa.consultarTramite')}</Link>
            <Link className="button button--primary" to="/">{t('postventa.volverInicio')}</Link>
          </div>
        </section>
      </PaginaSimple>
    );
  }
  return (
    <PaginaSimple>
      <div className="step step--postventa">
        <div className="step__body">
          <div className="step-head">
            <h1 className="step-title" tabIndex={-1} ref={titulo}>{t(`postventa.${tipo}.titulo`)}</h1>
            <p className="step-lead">{t(`postventa.${tipo}.bajada`)}</p>
            {tipo === 'baja' && (
              <div className="banner banner--info" data-testid="baja-rige">
                <Icon name="alerta" />
                <div>
                  <p className="banner__p"><strong>{t('postventa.baja.rigeHoy')}</strong> {t('legal.bajaRige', { fecha: formatDateAr(hoyArgentina()) })}</p>
                  <p className="banner__p">{t('legal.bajaArrepentimiento')}</p>
                </div>
              </div>
            )}
            <p className="note"><Icon name="candado" /> {t('postventa.formulario.sinCuenta')}</p>
          </div>
          {banner && (
            <div className="banner banner--error" role="alert">
              <Icon name="alerta" /> <span>{banner}</span>
            </div>
          )}
          <form className="form-fields" onSubmit={enviar} noValidate>
            <CamposPostventa campos={CAMPOS} prefijo="tramite" textos="postventa.formulario" valores={valores} errores={errores} onChange={(name, value) => setValores({ ...valores, [name]: value })} />
            <div className="actions">
              <button type="submit" className="button button--primary" disabled={enviando} aria-busy={enviando}>
                {enviando ? t('postventa.enviando') : t(`postventa.${tipo}.cta`)}
              </button>
            </div>
          </form>
          <p className="note">{t(tipo === 'baja' ? 'legal.bajaDerecho' : 'legal.arrepentimiento')}</p>
        </div>
      </div>
    </PaginaSimple>
  );
}
