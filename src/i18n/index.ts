/**
 * i18next with the local Spanish file, loaded synchronously (SPEC §1: default language es). The insurer's data
 * (config/aseguradora.json) are default placeholders of every text: {{nombre}}, {{cuit}}, {{registroSsn}}, {{domicilio}}…
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import es from './es.json';
import aseguradora from '../../config/aseguradora.json';

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'es',
  fallbackLng: 'es',
  resources: { es: { translation: es } },
  interpolation: { escapeValue: false, defaultVariables: aseguradora as unknown as Record<string, string> },
  initAsync: false,
  returnNull: false,
});
