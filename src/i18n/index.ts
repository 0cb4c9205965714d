/** i18next with the local Spanish file, loaded synchronously (SPEC §1: default language es). */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import es from './es.json';

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'es',
  fallbackLng: 'es',
  resources: { es: { translation: es } },
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
