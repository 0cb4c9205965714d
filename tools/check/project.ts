/**
 * The whole-product checker behind `npm run flow:check` (also run at build and in tests): the flow file, the
 * step schemas, the ui schemas, the texts and the widget registry checked together, so what a staffer can break
 * with a JSON edit is caught before a visitor meets it. Pure over already-loaded files (`ProductFiles`), so the
 * CLI (scripts/flow-check.ts) and the tests can check a copy of the product.
 *
 * Every problem names the file, the JSON pointer in it and what to change (CONVENTIONS §2).
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { checkFlow, flowBindings, type FlowProblem } from '../../src/core/flow/check-flow.ts';
import { compileFlow } from '../../src/core/flow/graph.ts';
import { conditionSchema } from '../../src/core/flow/conditions.ts';
import { escapeToken, getAt, parsePointer } from '../../src/core/flow/pointer.ts';
import type { Flow, FlowDef } from '../../src/core/flow/types.ts';
import type { ProductFiles } from '../../src/core/product.ts';
import { callsNamedInUi, COMMON_OPTIONS, FIELDS, WIDGETS, type WidgetSpec } from '../../src/form/widgets/registry.ts';
import { AREAS_SOLO_SERVIDOR } from '../../src/core/messages.ts';
import { checkAnswerOrder } from './answer-order.ts';
import { checkFieldTexts } from './texts.ts';
import { checkTariff } from './tariff.ts';

type Json = Record<string, unknown>;

export type { ProductFiles };

export interface ProductReport {
  problems: FlowProblem[];
  /** The compiled flow when the file is structurally valid. */
  flow?: Flow;
}

const UI_KEYS = new Set([
  'ui:widget',
  'ui:field',
  'ui:options',
  'ui:order',
  'ui:autofocus',
  'ui:title',
  'ui:help',
  'ui:placeholder',
  'ui:enumNames',
  'ui:submitButtonOptions',
]);

/** Top-level and conditional (`if/then/else`, `allOf`, `dependencies`) properties a schema object may hold. */
export function schemaProperties(schema: Json | undefined): Record<string, Json> {
  if (!schema || typeof schema !== 'object') return {};
  const out: Record<string, Json> = { ...(schema.properties as Record<string, Json> | undefined) };
  for (const part of [
    schema.then,
    schema.else,
    ...((schema.allOf as Json[]) ?? []),
    ...((schema.anyOf as Json[]) ?? []),
    ...((schema.oneOf as Json[]) ?? []),
  ]) {
    for (const [k, v] of Object.entries(schemaProperties(part as Json))) if (v && typeof v === 'object' && !(k in out)) out[k] = v;
    for (const [k, v] of Object.entries(schemaProperties((part as Json)?.then as Json))) if (!(k in out)) out[k] = v;
  }
  return out;
}

const typesOf = (prop: Json): string[] => (Array.isArray(prop.type) ? (prop.type as string[]) : prop.type ? [String(prop.type)] : []);

/** What every check below reads and how it reports: the files, the flow (as written and compiled), the texts. */
interface Ctx {
  files: ProductFiles;
  def: FlowDef;
  flow: Flow;
  add: (file: string, pointer: string, message: string, severity?: 'warning') => void;
  hasText: (key: string) => boolean;
  /** Reports a missing text `key` of es.json, saying who uses it (`where`). */
  needText: (key: string, where: string) => void;
}

/** Checks the flow and everything it names. @returns problems (errors and warnings) and the compiled flow */
export function checkProduct(files: ProductFiles): ProductReport {
  const problems: FlowProblem[] = [];
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validateFlow = ajv.compile(files.flowSchema);
  if (!validateFlow(files.flow)) {
    for (const e of validateFlow.errors ?? [])
      problems.push({ pointer: e.instancePath, message: `${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}` });
    return { problems };
  }
  const def = files.flow as FlowDef;
  const widgetCalls = callsNamedInUi(files.ui);
  problems.push(...checkFlow(def, files.contract, { callsUsedElsewhere: widgetCalls.map((c) => c.call) }));
  for (const c of widgetCalls) {
    if (!def.calls[c.call])
      problems.push({
        file: `schemas/${c.step}.ui.json`,
        pointer: c.at,
        message: `la llamada "${c.call}" no está declarada en flow/flow.json › calls`,
      });
  }
  const flow = compileFlow(def);
  const add = (file: string, pointer: string, message: string, severity?: 'warning') =>
    problems.push({ file, pointer, message, ...(severity ? { severity } : {}) });
  const hasText = (key: string) => getAt(files.texts, '/' + key.split('.').map(escapeToken).join('/')) !== undefined;
  const needText = (key: string, where: string) => {
    if (!hasText(key))
      add(
        'src/i18n/es.json',
        '/' + key.split('.').map(escapeToken).join('/'),
        `falta el texto "${key}" (lo usa ${where}): agregalo a es.json`,
      );
  };
  const ctx: Ctx = { files, def, flow, add, hasText, needText };
  checkConditions(ctx, ajv);
  checkWireRefs(ctx);
  checkFunnelSplit(ctx);
  checkSchemaFiles(ctx);
  checkSchemaIdsAndMessages(ctx);
  checkExamples(ctx);
  checkStepsAndTexts(ctx);
  checkMigrations(ctx);
  checkBindings(ctx);
  // the tariff rates every value the step schemas accept (./tariff.ts); per-field texts state no number of their own (./texts.ts)
  for (const [file, tariff] of Object.entries(files.tariffs ?? {}))
    problems.push(...checkTariff(file, tariff, files.schemas, files.wire ?? {}));
  problems.push(...checkFieldTexts(files.schemas, files.texts));
  problems.push(...checkAnswerOrder(def));
  return { problems, flow };
}

/** Conditions: each a JSON Schema ajv can compile (core/conditions.ts). */
function checkConditions({ def, add }: Ctx, ajv: Ajv): void {
  for (const [name, cond] of Object.entries(def.conditions)) {
    try {
      ajv.compile(conditionSchema(cond));
    } catch (err) {
      add(
        'flow/flow.json',
        `/conditions/${escapeToken(name)}`,
        `la condición "${name}" no es un JSON Schema válido: ${(err as Error).message}`,
      );
    }
  }
}

/** The wire reads its fields from the step schemas: every `$ref` into a step schema must still resolve. */
function checkWireRefs({ files, add }: Ctx): void {
  for (const [file, doc] of Object.entries(files.wire ?? {})) {
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const ref = (node as Json).$ref;
      const m = typeof ref === 'string' ? /^([a-z][a-z0-9-]*)\.schema\.json(?:#(.*))?$/.exec(ref) : null;
      if (m) {
        const step = files.schemas[m[1]];
        if (!step)
          add(
            `schemas/api/${file}`,
            `${at}/$ref`,
            `"${ref}" lee schemas/${m[1]}.schema.json, que no existe: definí el campo en el contrato (p. ej. en common.json › $defs) o restaurá el archivo`,
          );
        else if (m[2] && getAt(step, m[2]) === undefined)
          add(`schemas/api/${file}`, `${at}/$ref`, `"${ref}": schemas/${m[1]}.schema.json no tiene ${m[2]}`);
      }
      for (const [k, v] of Object.entries(node as Json)) walk(v, `${at}/${escapeToken(k)}`);
    };
    walk(doc, '');
  }
}

/** funnel.splitBy: a choice, never typed text — the named field is an enum of strings in the step's schema. */
function checkFunnelSplit({ files, def, add }: Ctx): void {
  for (const [id, field] of Object.entries(def.funnel?.splitBy ?? {})) {
    const prop = getAt(files.schemas[id] ?? {}, `/properties/${escapeToken(field)}`) as Json | undefined;
    const choice = Array.isArray(prop?.enum) && (prop!.enum as unknown[]).every((v) => typeof v === 'string');
    if (files.schemas[id] && !choice) {
      add(
        'flow/flow.json',
        `/funnel/splitBy/${escapeToken(id)}`,
        `"${field}" no es una lista de opciones (enum de textos) de schemas/${id}.schema.json: el embudo solo registra elecciones, nunca lo escrito`,
      );
    }
  }
}

/**
 * Schema files: one per form step and per standalone form (flow › forms, rendered as a form step is), none left over;
 * a ui schema only beside its schema.
 */
function checkSchemaFiles({ files, def, flow, add }: Ctx): void {
  const stepIndex = (id: string) => def.steps.findIndex((s) => s.id === id);
  for (const step of flow.steps) {
    if (step.kind === 'form' && !files.schemas[step.id])
      add('flow/flow.json', `/steps/${stepIndex(step.id)}`, `el paso de formulario "${step.id}" no tiene schemas/${step.id}.schema.json`);
  }
  const formSchemas = new Set(Object.values(def.forms ?? {}).map((f) => f.schema));
  for (const [id, form] of Object.entries(def.forms ?? {})) {
    if (!files.schemas[form.schema])
      add('flow/flow.json', `/forms/${escapeToken(id)}/schema`, `el formulario "${id}" no tiene schemas/${form.schema}.schema.json`);
  }
  for (const id of Object.keys(files.schemas)) {
    const step = flow.steps.find((s) => s.id === id);
    if (!step && formSchemas.has(id)) continue;
    if (!step) add(`schemas/${id}.schema.json`, '', `ningún paso de flow/flow.json se llama "${id}": borrá el archivo o agregá el paso`);
    else if (step.kind !== 'form')
      add(`schemas/${id}.schema.json`, '', `el paso "${id}" es de tipo "${step.kind}" y no muestra un formulario`);
  }
  for (const id of Object.keys(files.ui)) {
    if (!files.schemas[id]) add(`schemas/${id}.ui.json`, '', `no existe schemas/${id}.schema.json para este ui schema`);
    else if (!flow.steps.some((s) => s.id === id) && !formSchemas.has(id))
      add(`schemas/${id}.ui.json`, '', `ningún paso de flow/flow.json se llama "${id}": borrá el archivo o agregá el paso`);
  }
}

/**
 * Step schemas: `$id` "<step>.schema.json" (the API registers them under it and the wire refers to them by it), and
 * every `x-mensaje`, in step and wire schemas, names a text of es.json (the message both the form and the API show).
 */
function checkSchemaIdsAndMessages(ctx: Ctx): void {
  for (const [id, schema] of Object.entries(ctx.files.schemas)) {
    const file = `schemas/${id}.schema.json`;
    if (schema.$id !== `${id}.schema.json`)
      ctx.add(file, '/$id', `el "$id" tiene que ser "${id}.schema.json" (así lo registra la API y lo nombran los $ref de schemas/api)`);
    checkMessageKeys(ctx, file, schema, true);
  }
  for (const [file, doc] of Object.entries(ctx.files.wire ?? {})) checkMessageKeys(ctx, `schemas/api/${file}`, doc);
}

/**
 * Every `x-mensaje` of `schema` (a key, or a key per keyword) names a text of es.json; a step schema is shown by the
 * browser (`browser`), whose catalogue has no server-only area (AREAS_SOLO_SERVIDOR).
 */
function checkMessageKeys({ add, hasText }: Ctx, file: string, schema: Json, browser = false): void {
  const walk = (node: unknown, at: string): void => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Json)) {
      const here = `${at}/${escapeToken(k)}`;
      if (k !== 'x-mensaje') {
        walk(v, here);
        continue;
      }
      const keys =
        typeof v === 'string'
          ? [[here, v]]
          : v && typeof v === 'object'
            ? Object.entries(v as Json).map(([kw, key]) => [`${here}/${escapeToken(kw)}`, key])
            : [[here, v]];
      for (const [p, key] of keys) {
        if (typeof key !== 'string' || !hasText(key))
          add(
            file,
            p as string,
            `"x-mensaje" nombra "${String(key)}", que no es un texto de src/i18n/es.json: agregalo o corregí la clave`,
          );
        else if (browser && AREAS_SOLO_SERVIDOR.includes(key.split('.')[0])) {
          add(
            file,
            p as string,
            `"x-mensaje" nombra "${key}", un texto que solo lee el servidor (el navegador no lo tiene): usá uno de "validacion" u otra área del formulario`,
          );
        }
      }
    }
  };
  walk(schema, '');
}

/** Sample answers (root `examples`, used by the staff preview) must be valid answers. */
function checkExamples({ files, add }: Ctx): void {
  const exampleAjv = new Ajv({ allErrors: true, strict: false });
  addFormats(exampleAjv);
  for (const [id, schema] of Object.entries(files.schemas)) {
    const { $id: _id, ...rest } = schema;
    const validate = exampleAjv.compile(rest);
    ((schema.examples as unknown[]) ?? []).forEach((example, i) => {
      if (!validate(example))
        add(`schemas/${id}.schema.json`, `/examples/${i}`, `el ejemplo no cumple el schema: ${exampleAjv.errorsText(validate.errors)}`);
    });
  }
}

/**
 * @returns `checkUi(stepId, schema, ui, at)`: ui schema `ui` (at pointer `at`) against its schema and the widget
 * registry — known ui keys, properties that exist, ui:order, widgets and fields that exist and fit the field's type,
 * and their options (each valid against the option's schema)
 */
function uiChecker({ add }: Ctx) {
  const optionAjv = new Ajv({ allErrors: true, strict: false });
  const checkUi = (stepId: string, schema: Json, ui: Json, at: string) => {
    const file = `schemas/${stepId}.ui.json`;
    const props = schemaProperties(schema);
    const field = ui['ui:field'] as string | undefined;
    for (const [key, value] of Object.entries(ui)) {
      if (key.startsWith('ui:')) {
        if (!UI_KEYS.has(key))
          add(file, `${at}/${escapeToken(key)}`, `"${key}" no es una clave de ui schema conocida (${[...UI_KEYS].join(', ')})`);
        continue;
      }
      if (!(key in props)) {
        add(
          file,
          `${at}/${escapeToken(key)}`,
          `"${key}" no es una propiedad de schemas/${stepId}.schema.json: corregí el nombre o agregala al schema`,
        );
        continue;
      }
      if (value && typeof value === 'object') checkField(stepId, key, props[key], value as Json, `${at}/${escapeToken(key)}`);
    }
    const order = ui['ui:order'] as string[] | undefined;
    order?.forEach((name, i) => {
      if (name !== '*' && !(name in props)) add(file, `${at}/ui:order/${i}`, `"${name}" de ui:order no es una propiedad del schema`);
    });
    if (field !== undefined) {
      const spec = (FIELDS as Record<string, WidgetSpec>)[field];
      if (!spec) add(file, `${at}/ui:field`, `el campo "${field}" no existe; los que hay: ${Object.keys(FIELDS).join(', ')}`);
      else checkOptions(file, `${at}/ui:options`, (ui['ui:options'] as Json) ?? {}, spec);
    }
  };
  const checkOptions = (file: string, at: string, options: Json, spec: WidgetSpec) => {
    const known = { ...COMMON_OPTIONS, ...spec.options };
    for (const [name, value] of Object.entries(options)) {
      const schema = known[name];
      if (!schema) {
        add(file, `${at}/${escapeToken(name)}`, `la opción "${name}" no la lee este widget; las que lee: ${Object.keys(known).join(', ')}`);
        continue;
      }
      const { description: _d, calls: _c, ...rest } = schema;
      if (!optionAjv.validate(rest, value))
        add(
          file,
          `${at}/${escapeToken(name)}`,
          `valor inválido para "${name}": ${optionAjv.errorsText(optionAjv.errors)} (${schema.description})`,
        );
    }
  };
  const checkField = (stepId: string, name: string, prop: Json, fieldUi: Json, at: string) => {
    const file = `schemas/${stepId}.ui.json`;
    const widget = fieldUi['ui:widget'] as string | undefined;
    let spec: WidgetSpec = { description: 'input', types: [], options: {} };
    if (widget !== undefined) {
      const found = (WIDGETS as Record<string, WidgetSpec>)[widget];
      if (!found) {
        add(file, `${at}/ui:widget`, `el widget "${widget}" no existe; los que hay: ${Object.keys(WIDGETS).join(', ')}`);
        return;
      }
      spec = found;
      const types = typesOf(prop);
      if (types.length && !types.some((t) => found.types.includes(t as WidgetSpec['types'][number]))) {
        add(file, `${at}/ui:widget`, `"${widget}" muestra campos de tipo ${found.types.join('/')}, y "${name}" es ${types.join('/')}`);
      }
    }
    if (fieldUi['ui:options']) checkOptions(file, `${at}/ui:options`, fieldUi['ui:options'] as Json, spec);
    if (prop.type === 'object') checkUi(stepId, prop, fieldUi, at);
  };
  return checkUi;
}

/**
 * The texts a visitor sees of a step's fields (`prefix`.fields.<name>): a label unless `ui:options.label` is false,
 * one per option of a widget that names its options, the labels a root-level field names in its options; nested
 * objects under their field's prefix.
 */
function checkVisitorTexts(ctx: Ctx, stepId: string, schema: Json, ui: Json, prefix: string): void {
  const { needText } = ctx;
  const props = schemaProperties(schema);
  const owner = ui['ui:field']
    ? (FIELDS as Record<string, WidgetSpec & { labelledOptions?: string[] }>)[ui['ui:field'] as string]
    : undefined;
  const owned = new Set<string>();
  if (owner) {
    const names = Object.values(((ui['ui:options'] as Json)?.fields as Record<string, string>) ?? {});
    names.forEach((n) => owned.add(n));
    for (const opt of owner.labelledOptions ?? []) {
      const prop = getAt(ui['ui:options'], '/' + opt.split('.').join('/'));
      if (typeof prop === 'string') needText(`${prefix}.fields.${prop}.label`, `schemas/${stepId}.ui.json (${ui['ui:field']})`);
    }
  }
  for (const [name, prop] of Object.entries(props)) {
    if (owned.has(name)) continue;
    const fieldUi = (ui[name] as Json) ?? {};
    const widget = fieldUi['ui:widget'] as string | undefined;
    const options = (fieldUi['ui:options'] as Json) ?? {};
    const where = `el campo "${name}" de schemas/${stepId}.schema.json`;
    if (options.label !== false) needText(`${prefix}.fields.${name}.label`, where);
    const spec = widget ? (WIDGETS as Record<string, WidgetSpec>)[widget] : undefined;
    if (spec?.enumTexts && Array.isArray(prop.enum))
      for (const v of prop.enum) needText(`${prefix}.fields.${name}.options.${String(v)}`, where);
    if (prop.type === 'object') checkVisitorTexts(ctx, stepId, prop, fieldUi, `${prefix}.fields.${name}`);
  }
}

/**
 * Each step: its ui schema (uiChecker) and every text a visitor sees of it — title, landing CTA, field texts, review
 * sections and rows, result rows, notices, actions, extras, loading message; then stage names, resume and chat texts.
 */
function checkStepsAndTexts(ctx: Ctx): void {
  const { files, flow, needText } = ctx;
  const checkUi = uiChecker(ctx);
  for (const step of flow.steps) {
    const where = `el paso "${step.id}"`;
    needText(`${step.id}.titulo`, where);
    if (step.kind === 'landing') needText(`${step.id}.cta`, where);
    if (step.kind === 'form' && files.schemas[step.id]) {
      const ui = files.ui[step.id] ?? {};
      checkUi(step.id, files.schemas[step.id], ui, '');
      checkVisitorTexts(ctx, step.id, files.schemas[step.id], ui, step.id);
    }
    step.review?.forEach((sec) => {
      needText(`${step.id}.secciones.${sec.title}`, where);
      if (sec.edit) needText(`${step.id}.editar`, where);
      sec.rows.forEach((r) => needText(`${step.id}.filas.${r.label}`, where));
    });
    for (const k of Object.keys(step.result?.rows ?? {})) needText(`${step.id}.filas.${k}`, where);
    step.notices?.forEach((n) => needText(`${step.id}.avisos.${n.text}`, where));
    step.actions?.forEach((a) => needText(`${step.id}.acciones.${a.text}`, where));
    step.extras?.forEach((x) => {
      needText(`${step.id}.extras.${x.text}`, where);
      if ('done' in x) needText(`${step.id}.extras.${x.done}`, where);
    });
    if (step.loadingMessage) needText(`app.loader.${step.loadingMessage}`, where);
  }
  for (const stage of flow.stages) needText(`app.etapas.${stage}`, `la etapa "${stage}"`);
  if (flow.resume)
    for (const t of [flow.resume.failed, ...(flow.resume.notices ?? []).map((n) => n.text)])
      needText(`app.avisos.${t}`, 'el retomar cotización (resume)');
  if (flow.chat?.text) needText(`app.${flow.chat.text}`, 'el chat (chat.text)');
}

/** Migrations of saved journeys: a chain up to the current version (a gap is a warning), each operation well formed. */
function checkMigrations({ files, def, flow, add }: Ctx): void {
  const versions = new Set<number>();
  for (const [name, m] of Object.entries(files.migrations ?? {})) {
    const file = `flow/migrations/${name}`;
    if (!Number.isInteger(m.from) || m.to !== (m.from as number) + 1)
      add(file, '', 'una migración lleva de "from" a "to" = from + 1 (números enteros)');
    else if ((m.to as number) > def.version) add(file, '/to', `la versión ${String(m.to)} es posterior a la del flujo (${def.version})`);
    else versions.add(m.to as number);
    ((m.operations as Json[]) ?? []).forEach((op, i) => {
      const at = `/operations/${i}`;
      if (op.op === 'mapFlag' && !flow.steps.some((st) => st.id === op.to))
        add(file, `${at}/to`, `el paso "${String(op.to)}" no existe en flow/flow.json`);
      else if (!['move', 'drop', 'mapFlag'].includes(op.op as string))
        add(file, `${at}/op`, `operación desconocida "${String(op.op)}" (move, drop, mapFlag)`);
    });
  }
  for (let v = 2; v <= def.version; v++) {
    if (!versions.has(v))
      add(
        'flow/flow.json',
        '/version',
        `no hay migración a la versión ${v} (flow/migrations/${v}.json): quien guardó su recorrido con la versión ${v - 1} empieza de nuevo`,
        'warning',
      );
  }
}

/** Bindings that read answers: the step's schema must have the field (nested objects followed). */
function checkBindings({ files, def, add }: Ctx): void {
  for (const b of flowBindings(def)) {
    const tokens = parsePointer(b.pointer);
    if (!tokens || tokens[0] !== 'answers' || tokens.length < 3) continue;
    const schema = files.schemas[tokens[1]];
    if (!schema) continue;
    let props = schemaProperties(schema);
    for (let i = 2; i < tokens.length; i++) {
      const prop = props[tokens[i]];
      if (!prop) {
        const known = Object.keys(props);
        add(
          'flow/flow.json',
          b.at,
          `"${b.pointer}" lee "${tokens[i]}", que no es un campo de schemas/${tokens[1]}.schema.json (campos: ${known.join(', ')})`,
        );
        break;
      }
      if (prop.type !== 'object') break;
      props = schemaProperties(prop);
    }
  }
}

/** One row per step: route, flag, kind, stage, back, calls — the checker's summary table. */
export function summaryRows(flow: Flow): string[][] {
  const calls = (s: Flow['steps'][number]) =>
    [...(s.onSubmit ?? []), ...Object.values(s.onChange ?? {}).flat()]
      .map((r) => (typeof r === 'string' ? r : `${r.call}?${r.when}`))
      .join(', ');
  return flow.steps.map((s) => [s.id, `/${s.path}`, s.flag, s.kind, s.stage ?? '', s.back ?? '', calls(s)]);
}
