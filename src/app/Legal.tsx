/**
 * What Argentine rules ask every page to show: the footer with the insurer's data and the botón de
 * arrepentimiento / botón de baja (Ley 24.240 art. 10 ter and 34, Res. SSN 360/2024 mod. 435/2025), the SSN
 * "Servicio de Atención al Asegurado" block (home page), and a plain frame for screens outside the flow.
 * Texts: src/i18n/es.json › legal.*; the insurer's data: config/aseguradora.json (i18n default placeholders).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon } from '../form/widgets/Icon';
import { RUTA_CONSULTA_TRAMITE, RUTAS_LEGALES, RUTAS_POSTVENTA } from '../core/rutas.ts';

/** The two consumer-law buttons, as links without an account, and the lookup of a request's tracking code. */
export function BotonesLegales({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <nav
      className={`legal-buttons ${className}`}
      aria-label={`${t('legal.botones.arrepentimiento')} · ${t('legal.botones.baja')} · ${t('postventa.consultarTramite')}`}
    >
      <Link className="legal-buttons__link" to={RUTAS_POSTVENTA.arrepentimiento}>
        {t('legal.botones.arrepentimiento')}
      </Link>
      <Link className="legal-buttons__link" to={RUTAS_POSTVENTA.baja}>
        {t('legal.botones.baja')}
      </Link>
      <Link className="legal-buttons__link" to={RUTA_CONSULTA_TRAMITE}>
        {t('postventa.consultarTramite')}
      </Link>
    </nav>
  );
}

/** Footer of every page: the buttons, the insurer's data, the SSN contact and the reference-site note. */
export function PieLegal() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <BotonesLegales />
      <nav className="footer__links" aria-label={t('legal.paginas.titulo')}>
        {(Object.keys(RUTAS_LEGALES) as (keyof typeof RUTAS_LEGALES)[]).map((k) => (
          <Link key={k} to={RUTAS_LEGALES[k]}>
            {t(`legal.paginas.${k}.enlace`)}
          </Link>
        ))}
      </nav>
      <p>{t('legal.pie')}</p>
      <p>{t('app.pie')} Superintendencia de Seguros de la Nación — 0800-666-8400 — www.argentina.gob.ar/ssn</p>
    </footer>
  );
}

/** The SSN's standard "Servicio de Atención al Asegurado" block. */
export function AtencionAsegurado() {
  const { t } = useTranslation();
  const parrafos = t('legal.ssn.parrafos', { returnObjects: true }) as string[];
  return (
    <section className="ssn" aria-labelledby="ssn-titulo">
      <h2 id="ssn-titulo" className="ssn__title">
        {t('legal.ssn.titulo')}
      </h2>
      {parrafos.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </section>
  );
}

/** Page frame for screens outside the flow: brand header, content, legal footer. */
export function PaginaSimple({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="page page--simple">
      <header className="header">
        <div className="header__inner">
          <Link className="brand" to="/">
            <Icon name="escudo" className="brand__logo" />
            <span className="brand__name">
              {t('app.marca')} <span className="brand__sub">{t('app.marcaSub')}</span>
            </span>
          </Link>
          <span className="header__secure">
            <Icon name="candado" /> {t('app.seguro')}
          </span>
        </div>
      </header>
      <main className="main" id="contenido">
        {children}
      </main>
      <PieLegal />
    </div>
  );
}
