/**
 * The tariff against the step schemas: the step schema's enum and bounds are THE rule of what a
 * visitor may answer, so the tariff has to rate every value the form accepts. Part of `npm run flow:check`
 * (tools/check/project.ts › checkProduct, when `ProductFiles.tariffs` is given).
 *
 * Which answer feeds which tariff entry: the quote request schema (the wire def of schemas/api whose properties name
 * the most rated fields — `CotizarBody`) takes each field by `$ref` to `<step>.schema.json#/properties/<field>`, and the
 * tariff rates, by field name:
 * - `metros`        → `superficie.bandas` (every integer from the schema's minimum to its maximum in exactly one band);
 * - `tipoVivienda`  → `tiposVivienda` (a key per enum value);
 * - `titularidad`   → `titularidades`;
 * - `factores[i].campo` → `factores[i].valores` (a key per enum value; `zona` comes from the locality, not a step).
 * ERROR (names both files and pointers) when the form accepts a value the tariff does not rate; WARNING for a tariff
 * entry no answer can reach (a band outside the bounds, a value the enum lacks, a dimension no answer feeds).
 */
import { escapeToken, getAt } from '../../src/core/flow/pointer.ts';
import type { FlowProblem } from '../../src/core/flow/check-flow.ts';

type Json = Record<string, unknown>;

/** Where a rated field's rule lives: the step schema file, the pointer of the field in it and its schema. */
interface FieldRule {
  file: string;
  pointer: string;
  prop: Json;
}

/** Rated fields the sums read, besides the `factores` dimensions: field → tariff table (a key per value). */
const TABLES: Record<string, string> = { tipoVivienda: 'tiposVivienda', titularidad: 'titularidades' };

/** Resolves `<step>.schema.json#/properties/x` against the step schemas. */
function resolveStepRef(ref: unknown, schemas: Record<string, Json>): FieldRule | undefined {
  const m = typeof ref === 'string' ? /^([a-z][a-z0-9-]*)\.schema\.json#(\/.*)$/.exec(ref) : null;
  if (!m || !schemas[m[1]]) return undefined;
  const prop = getAt(schemas[m[1]], m[2]);
  return prop && typeof prop === 'object' ? { file: `schemas/${m[1]}.schema.json`, pointer: m[2], prop: prop as Json } : undefined;
}

/** The fields of the quote request (the wire def naming the most rated fields), each with its step-schema rule. */
function ratedFields(wire: Record<string, Json>, schemas: Record<string, Json>, rated: string[]): Map<string, FieldRule> {
  let best = new Map<string, FieldRule>();
  let bestCount = 0;
  for (const doc of Object.values(wire)) {
    for (const def of Object.values((doc.$defs as Record<string, Json>) ?? {})) {
      const props = (def?.properties as Record<string, Json>) ?? {};
      const count = rated.filter((c) => c in props).length;
      if (count <= bestCount) continue;
      const found = new Map<string, FieldRule>();
      for (const [name, p] of Object.entries(props)) {
        const rule = resolveStepRef(p?.$ref, schemas);
        if (rule) found.set(name, rule);
      }
      best = found;
      bestCount = count;
    }
  }
  return best;
}

/** Integer bounds a number field's schema allows (`minimum`/`maximum`, exclusive ones turned inclusive). */
export function numberBounds(prop: Json): { min?: number; max?: number; minAt?: string; maxAt?: string } {
  const out: { min?: number; max?: number; minAt?: string; maxAt?: string } = {};
  if (typeof prop.minimum === 'number') Object.assign(out, { min: Math.ceil(prop.minimum), minAt: 'minimum' });
  if (typeof prop.exclusiveMinimum === 'number' && (out.min === undefined || prop.exclusiveMinimum >= out.min)) {
    Object.assign(out, { min: Math.floor(prop.exclusiveMinimum) + 1, minAt: 'exclusiveMinimum' });
  }
  if (typeof prop.maximum === 'number') Object.assign(out, { max: Math.floor(prop.maximum), maxAt: 'maximum' });
  if (typeof prop.exclusiveMaximum === 'number' && (out.max === undefined || prop.exclusiveMaximum <= out.max)) {
    Object.assign(out, { max: Math.ceil(prop.exclusiveMaximum) - 1, maxAt: 'exclusiveMaximum' });
  }
  return out;
}

/** How the checks report: `err` (the form accepts what the tariff cannot rate), `warn` (an entry no answer reaches). */
interface Report {
  err: (file: string, pointer: string, message: string) => void;
  warn: (file: string, pointer: string, message: string) => void;
}

/** A surface band of the tariff (m², both ends included) with its index in `superficie.bandas`. */
type Banda = { desde: number; hasta: number; i: number };

/**
 * Checks one tariff against the step schemas through the quote request schema.
 * @param file the tariff's path in the product, e.g. "server/tariffs/2026-11.json"
 * @param tariff the parsed tariff (shape of server/src/domain/rating/tariff.ts)
 * @param schemas step schemas by step id; @param wire schemas/api files by name
 * @returns problems: errors where the form accepts what the tariff cannot rate, warnings for unreachable entries
 */
export function checkTariff(file: string, tariff: Json, schemas: Record<string, Json>, wire: Record<string, Json>): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const r: Report = {
    err: (f, pointer, message) => problems.push({ file: f, pointer, message }),
    warn: (f, pointer, message) => problems.push({ file: f, pointer, message, severity: 'warning' }),
  };
  const factores = Array.isArray(tariff.factores) ? (tariff.factores as Json[]) : [];
  const rated = ['metros', ...Object.keys(TABLES), ...factores.map((f) => String(f.campo))];
  const fields = ratedFields(wire, schemas, rated);

  // metros → superficie.bandas
  const superficie = (tariff.superficie as Json) ?? {};
  const bandas = Array.isArray(superficie.bandas) ? (superficie.bandas as { desde: number; hasta: number }[]) : [];
  for (const k of ['min', 'max']) {
    if (k in superficie)
      r.err(
        file,
        `/superficie/${k}`,
        `"superficie.${k}" repite un límite: sale de las bandas (y el límite del formulario es el de schemas/metros.schema.json); borralo`,
      );
  }
  const metros = fields.get('metros');
  if (metros && bandas.length) {
    const orden = bandas.map((b, i) => ({ ...b, i })).sort((a, b) => a.desde - b.desde);
    checkBandEnds(r, file, metros, orden);
    checkBandSequence(r, file, metros, orden);
  } else if (!metros && bandas.length)
    r.warn(file, '/superficie', 'ninguna respuesta del pedido de cotización se llama "metros": las bandas de superficie no se usan');

  // enums → a key per value
  for (const [campo, table] of Object.entries(TABLES)) {
    if (tariff[table] && typeof tariff[table] === 'object') checkEnum(r, file, fields, campo, tariff[table] as Json, `/${table}`);
  }
  factores.forEach((f, i) => {
    if (typeof f.campo === 'string' && f.valores && typeof f.valores === 'object')
      checkEnum(r, file, fields, f.campo, f.valores as Json, `/factores/${i}/valores`, { porDefecto: f.porDefecto });
  });
  return problems;
}

/** The form's `metros` bounds are those of the bands: a minimum at least the first band's start, a maximum at most the last's end. */
function checkBandEnds({ err }: Report, file: string, metros: FieldRule, orden: Banda[]): void {
  const { min, max, minAt, maxAt } = numberBounds(metros.prop);
  const first = orden[0];
  const last = orden[orden.length - 1];
  if (min === undefined)
    err(
      metros.file,
      `${metros.pointer}`,
      `"metros" no tiene "minimum": la tarifa tasa desde ${first.desde} m² (${file}#/superficie/bandas/${first.i}/desde); poné "minimum": ${first.desde}`,
    );
  else if (min < first.desde) {
    err(
      metros.file,
      `${metros.pointer}/${minAt}`,
      `el formulario acepta desde ${min} m² y la tarifa tasa desde ${first.desde} (${file}#/superficie/bandas/${first.i}/desde): agregá una banda desde ${min} o subí el mínimo`,
    );
  }
  if (max === undefined)
    err(
      metros.file,
      `${metros.pointer}`,
      `"metros" no tiene "maximum": la tarifa tasa hasta ${last.hasta} m² (${file}#/superficie/bandas/${last.i}/hasta); poné "maximum": ${last.hasta}`,
    );
  else if (max > last.hasta) {
    err(
      metros.file,
      `${metros.pointer}/${maxAt}`,
      `el formulario acepta hasta ${max} m² y la tarifa tasa hasta ${last.hasta} (${file}#/superficie/bandas/${last.i}/hasta): agregá una banda hasta ${max} o bajá el máximo`,
    );
  }
}

/**
 * The bands (sorted by start) follow one another: no gap the form accepts (error), no overlap (error), and none that
 * no accepted answer reaches (warning).
 */
function checkBandSequence({ err, warn }: Report, file: string, metros: FieldRule, orden: Banda[]): void {
  const { min, max } = numberBounds(metros.prop);
  for (let j = 1; j < orden.length; j++) {
    const [a, b] = [orden[j - 1], orden[j]];
    const lo = Math.max(a.hasta + 1, min ?? -Infinity);
    const hi = Math.min(b.desde - 1, max ?? Infinity);
    if (b.desde > a.hasta + 1 && lo <= hi)
      err(
        file,
        `/superficie/bandas/${b.i}/desde`,
        `ninguna banda tasa de ${lo} a ${hi} m², que ${metros.file}#${metros.pointer} acepta: hacé empezar esta banda en ${a.hasta + 1}`,
      );
    if (b.desde <= a.hasta)
      err(
        file,
        `/superficie/bandas/${b.i}/desde`,
        `esta banda empieza en ${b.desde} m² y la anterior llega hasta ${a.hasta}: cada superficie va en una sola banda`,
      );
  }
  for (const b of orden) {
    if ((max !== undefined && b.desde > max) || (min !== undefined && b.hasta < min)) {
      warn(
        file,
        `/superficie/bandas/${b.i}`,
        `ninguna respuesta llega a esta banda (${b.desde}–${b.hasta} m²): ${metros.file}#${metros.pointer} acepta de ${min} a ${max}; borrala o cambiá los límites del schema`,
      );
    }
  }
}

/**
 * A table rated by value (`campo` → a key per value, at `tablePointer` of the tariff): the field's `enum` (or `const`)
 * must exist and every value have a key (errors); a key no value reaches, other than `porDefecto`, is a warning, and so is
 * a table whose field no quote request carries (but "zona", which the server derives).
 */
function checkEnum(
  { err, warn }: Report,
  file: string,
  fields: Map<string, FieldRule>,
  campo: string,
  table: Json,
  tablePointer: string,
  opts: { porDefecto?: unknown } = {},
): void {
  const rule = fields.get(campo);
  if (!rule) {
    if (campo !== 'zona')
      warn(
        file,
        tablePointer,
        `ninguna respuesta del pedido de cotización se llama "${campo}": se usa siempre ${opts.porDefecto !== undefined ? `"${String(opts.porDefecto)}" (porDefecto)` : 'nada (la cotización falla)'}; agregá el campo a un paso y al pedido (schemas/api) o borrá la entrada`,
      );
    return;
  }
  const values = Array.isArray(rule.prop.enum) ? (rule.prop.enum as unknown[]) : 'const' in rule.prop ? [rule.prop.const] : undefined;
  if (!values) {
    err(
      rule.file,
      rule.pointer,
      `la tarifa (${file}#${tablePointer}) tasa "${campo}" por valor, y el schema no lo limita: poné un "enum" con los valores de la tarifa (${Object.keys(table).join(', ')})`,
    );
    return;
  }
  values.forEach((v, i) => {
    if (!(String(v) in table)) {
      err(
        rule.file,
        `${rule.pointer}/enum/${i}`,
        `el formulario ofrece "${String(v)}" y la tarifa no lo tasa (${file}#${tablePointer}): agregá "${String(v)}" ahí o sacalo del enum`,
      );
    }
  });
  for (const k of Object.keys(table)) {
    if (!values.map(String).includes(k) && k !== opts.porDefecto)
      warn(
        file,
        `${tablePointer}/${escapeToken(k)}`,
        `ninguna respuesta llega a "${k}": ${rule.file}#${rule.pointer}/enum no lo ofrece; borralo o agregalo al enum`,
      );
  }
}
