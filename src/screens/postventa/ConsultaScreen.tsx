/**
 * Tracking-code lookup (issue 23, route RUTA_CONSULTA_TRAMITE): the visitor types the código de seguimiento of a
 * withdrawal or cancellation plus the holder's DNI or e-mail (so codes cannot be tried one after another), and sees the
 * request's type, policy, date, state and effective date. The rules (formats, matching without telling an unknown code
 * from a wrong DNI, limits) live on the server (POST /api/postventa/consulta, schemas/api/postventa.json
 * › ConsultaBody/ConsultaResponse); its field errors go on the fields, anything else above the form.
 * Texts: src/i18n/es.json › postventa.consulta.*, legal.bajaRige (the baja's one effective-date sentence).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CamposPostventa, type CampoPostventa } from './CamposPostventa';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { api } from '../../api/instance';
import { PaginaSimple } from '../../app/Legal';
import { formatDateAr } from '../../core/dates';
import { Icon } from '../../form/widgets/Icon';
import { RUTAS_POSTVENTA } from '../../core/rutas';

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

const CAMPOS: CampoPostventa[] = [
  { name: 'codigo', autoComplete: 'off', inputMode: 'text', autoCapitalize: 'characters' },
  { name: 'dniOEmail', autoComplete: 'off', inputMode: 'email', autoCapitalize: 'none' },
];

/** The request's state as the holder reads it (a baja followed by a withdrawal is void). */
const claveEstado = (c: Consulta) => (c.tipo === 'ARREPENTIMIENTO' ? 'ARREPENTIMIENTO' : c.estado === 'ANULADA' ? 'BAJA_ANULADA' : 'BAJA');

export function ConsultaScreen() {
  const { t } = useTranslation();
  const [valores, setValores] = useState<Record<string, string>>({ codigo: '', dniOEmail: '' });
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const [hallado, setHallado] = useState<Consulta | null>(null);
  const titulo = useRef<HTMLHeadingElement>(null);
  useEffect(() => titulo.current?.focus(), [hallado]);

  const consultar = async (e: FormEvent) => {
    e.preventDefault();
    const faltan = Object.fromEntries(CAMPOS.filter((c) => !valores[c.name].trim()).map((c) => [c.name, t(`postventa.consulta.errores.${c.name}`)]));
    setErrores(faltan);
    setBanner(null);
    if (Object.keys(faltan).length) return;
    setEnviando(true);
    try {
      setHallado((await api.post('/postventa/consulta', { codigo: valores.codigo.trim().toUpperCase(), dniOEmail: valores.dniOEmail.trim() })) as Consulta);
    } catch (err) {
      const fields = err instanceof ApiError ? Object.fromEntries(err.errors.map((f) => [f.field.replace(/^\//, ''), f.message])) : {};
      setErrores(fields);
      setBanner(Object.keys(fields).length ? null : (err as Error).message || t('errors.generic'));
    } finally {
      setEnviando(false);
    }
  };

  if (hallado) {
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
          <h1 className="result__title" tabIndex={-1} ref={titulo}>{t('postventa.consulta.resultadoTitulo', { codigo: hallado.codigo })}</h1>
          <dl className="review__rows consulta__datos">
            {fila(t('postventa.consulta.tipo'), t(`postventa.consulta.tipos.${hallado.tipo}`), 'consulta-tipo')}
            {fila(t('postventa.consulta.poliza'), hallado.numSecuPol, 'consulta-poliza')}
            {fila(t('postventa.consulta.fecha'), formatDateAr(hallado.fecha), 'consulta-fecha')}
            {fila(t('postventa.consulta.estado'), t(`postventa.consulta.estados.${claveEstado(hallado)}`), 'consulta-estado')}
            {fila(
              t('postventa.consulta.fechaEfectiva'),
              t(hallado.tipo === 'ARREPENTIMIENTO' ? 'postventa.consulta.efectivaArrepentimiento' : 'postventa.consulta.efectivaBaja', { fecha: efectiva }),
              'consulta-efectiva',
            )}
          </dl>
          {hallado.tipo === 'BAJA' && hallado.estado === 'BAJA' && <p className="result__lead" data-testid="baja-rige">{t('legal.bajaRige', { fecha: efectiva })}</p>}
          {hallado.arrepentimientoHasta && (
            <p className="result__lead">
              {t('legal.bajaArrepentimientoHasta', { hasta: formatDateAr(hallado.arrepentimientoHasta) })}{' '}
              <Link to={RUTAS_POSTVENTA.arrepentimiento}>{t('legal.botones.arrepentimiento')}</Link>
            </p>
          )}
          <div className="result__actions">
            <button type="button" className="button button--ghost" onClick={() => setHallado(null)}>{t('postventa.consulta.otra')}</button>
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
            <h1 className="step-title" tabIndex={-1} ref={titulo}>{t('postventa.consulta.titulo')}</h1>
            <p className="step-lead">{t('postventa.consulta.bajada')}</p>
            <p className="note"><Icon name="candado" /> {t('postventa.formulario.sinCuenta')}</p>
          </div>
          {banner && (
            <div className="banner banner--error" role="alert">
              <Icon name="alerta" /> <span>{banner}</span>
            </div>
          )}
          <form className="form-fields" onSubmit={consultar} noValidate>
            <CamposPostventa campos={CAMPOS} prefijo="consulta" textos="postventa.consulta" valores={valores} errores={errores} onChange={(name, value) => setValores({ ...valores, [name]: value })} />
            <div className="actions">
              <button type="submit" className="button button--primary" disabled={enviando} aria-busy={enviando}>
                {enviando ? t('postventa.consulta.buscando') : t('postventa.consulta.cta')}
              </button>
            </div>
          </form>
        </div>
      </div>
    </PaginaSimple>
  );
}
