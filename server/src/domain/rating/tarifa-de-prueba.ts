/**
 * What the rating tests start from: the real tariff 2026-11 and a base rating input (a permanent, owner-occupied
 * 80 m² CASA outside a gated community, zone Z1, Buenos Aires province), which each test varies.
 */
import { join } from 'node:path';
import type { RatingInput } from './engine.ts';
import { loadTariff } from './tariff.ts';

export const tariff = loadTariff(join(import.meta.dirname, '../../../tariffs/2026-11.json'));

export const base: RatingInput = {
  tipoVivienda: 'CASA',
  usoVivienda: 'PERMANENTE',
  titularidad: 'PROPIETARIO',
  barrioCerrado: 'N',
  metros: 80,
  zona: 'Z1',
  provinciaId: '06',
};
