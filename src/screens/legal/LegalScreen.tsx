/**
 * The legal pages outside the flow: terms and conditions, privacy policy (Ley 25.326) and the insured's
 * service page (how to report a claim and get a copy of the policy, Res. SSN 360/2024 mod. 435/2025, plus the SSN's
 * "Servicio de Atención al Asegurado" block). The pages' texts live in src/i18n/legal-paginas.json (key
 * legal.paginas.<pagina>.{titulo,bajada,secciones}), merged into the catalogue when this chunk loads, so the flow's
 * pages never download them; the footer's link names stay in es.json › legal.paginas.<pagina>.enlace. The
 * insurer's data come from config/aseguradora.json (i18n placeholders). No journey state, no guards.
 */
import i18next from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import paginas from '../../i18n/legal-paginas.json';
import { conEnlaces } from '../../app/enlaces';
import { AtencionAsegurado, PaginaSimple } from '../../app/Legal';
import type { PaginaLegal } from '../../core/rutas.ts';

interface Seccion {
  titulo: string;
  parrafos: string[];
}

/** Adds the pages' texts to the catalogue of `i18n` (deep merge; es.json's own keys kept). */
export function agregarTextosLegales(i18n: typeof i18next) {
  if (!i18n.exists('legal.paginas.terminos.titulo')) i18n.addResourceBundle('es', 'translation', paginas, true, false);
}

export function LegalScreen({ pagina }: { pagina: PaginaLegal }) {
  const { t, i18n } = useTranslation();
  agregarTextosLegales(i18n);
  const k = `legal.paginas.${pagina}`;
  const secciones = t(`${k}.secciones`, { returnObjects: true }) as Seccion[];
  useEffect(() => {
    document.title = `${t(`${k}.titulo`)} — ${t('app.marca')}`;
  }, [k, t]);
  return (
    <PaginaSimple>
      <article className="legal-page">
        <h1 className="step-title">{t(`${k}.titulo`)}</h1>
        <p className="step-lead">{t(`${k}.bajada`)}</p>
        {secciones.map((s) => (
          <section key={s.titulo} className="legal-page__section">
            <h2 className="legal-page__title">{s.titulo}</h2>
            {s.parrafos.map((p) => (
              <p key={p}>{conEnlaces(p)}</p>
            ))}
          </section>
        ))}
        {pagina === 'atencion' && <AtencionAsegurado />}
        <p className="legal-page__version">{t('legal.paginas.version', { version: t('legal.datosPersonales.version') })}</p>
      </article>
    </PaginaSimple>
  );
}
