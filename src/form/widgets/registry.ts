/**
 * The registry behind every widget and field name a staffer types in `schemas/<step>.ui.json` (SurveyJS-style:
 * one table feeds the form, the checker — `npm run flow:check` rejects an unknown `ui:widget`/`ui:field` or a
 * `ui:options` key the widget does not read — and the docs, docs/flow-format.md › Widgets).
 * Metadata only (no React), so Node tools can read it; `StepForm` maps each name to its component and the
 * type checker makes sure every name here has one.
 */

/** A JSON Schema for one `ui:options` key; `calls: true` marks an object whose values are flow call names. */
type OptionSchema = Record<string, unknown> & { description: string; calls?: boolean };

export interface WidgetSpec {
  description: string;
  /** JSON Schema types of the field it can render. */
  types: ('string' | 'integer' | 'number' | 'boolean' | 'array' | 'object')[];
  /** `ui:options` it reads besides the common ones. */
  options: Record<string, OptionSchema>;
  /** Renders a group of controls: its label is a fieldset legend. */
  group?: boolean;
  /** Renders its own label (a checkbox beside its text). */
  selfLabelled?: boolean;
  /** Its option texts come from es.json › <step>.fields.<field>.options.<value> (one per enum value). */
  enumTexts?: boolean;
  /**
   * How a tester's driver answers it (tools/replay/browser.ts), addressing controls by schema, not by label:
   * `text` fill `#<step>_<field>`; `choice` check `input[name=<id>][value=<answer>]`; `multi` set each
   * `input[name=<id>][value=<code>]` to the answer's membership; `checkbox` set `#<id>`; `select` pick the value;
   * `location` pick the locality named in ui:options.fields (and its province first, when the field asks it apart);
   * `phone` type the area code and the number named in ui:options.fields into the one phone input. Default `text`.
   */
  drive?: DriveKind;
}

/** See {@link WidgetSpec.drive}. */
export type DriveKind = 'text' | 'choice' | 'multi' | 'checkbox' | 'select' | 'location' | 'phone';

const pointer = { type: 'string', pattern: '^(/[^/]*)+$' };
const icons = ['casa', 'edificio', 'ph', 'tarjeta', 'banco', 'check', 'escudo', 'candado', 'chat', 'alerta', 'flecha'];

/** `ui:options` every text-like field understands (BaseInputTemplate, FieldTemplate). */
export const COMMON_OPTIONS: Record<string, OptionSchema> = {
  label: { type: 'boolean', description: 'false: no visible label (the step title says it).' },
  width: { enum: ['short', 'medium'], description: 'Narrower input for short values.' },
  inputMode: { enum: ['numeric', 'decimal', 'email', 'tel', 'text', 'search', 'url'], description: 'Keyboard on phones.' },
  inputType: { enum: ['text', 'email', 'tel', 'password', 'url'], description: 'HTML input type.' },
  autocomplete: { type: 'string', description: 'HTML autocomplete token (e.g. email, given-name, postal-code).' },
  prefix: { type: 'string', description: 'Text shown before the input (e.g. "0").' },
  unit: { type: 'string', description: 'Text shown after the input (e.g. "m²").' },
  emptyValue: { description: 'Value stored when the input is emptied.' },
};

export const WIDGETS = {
  ChoiceCardsWidget: {
    drive: 'choice',
    description: 'Options as large tappable cards (radio group); texts from es.json options/hints.',
    types: ['string', 'integer', 'number'],
    group: true,
    enumTexts: true,
    options: {
      icons: { type: 'object', additionalProperties: { enum: icons }, description: `Icon per option value (${icons.join(', ')}).` },
      compact: { type: 'boolean', description: 'Options side by side.' },
      hints: { type: 'object', description: 'Second line per option (filled from es.json hints).' },
    },
  },
  YesNoWidget: {
    drive: 'choice',
    description: 'Sí / No as two cards (boolean, no pre-selected answer).',
    types: ['boolean'],
    group: true,
    options: {},
  },
  CheckboxWidget: {
    drive: 'checkbox',
    description: 'A checkbox with its label beside it.',
    types: ['boolean'],
    selfLabelled: true,
    options: {},
  },
  checkbox: { drive: 'checkbox', description: 'Alias of CheckboxWidget.', types: ['boolean'], selfLabelled: true, options: {} },
  select: {
    drive: 'select',
    description: 'Native dropdown; option texts from es.json options.',
    types: ['string', 'integer', 'number'],
    enumTexts: true,
    options: {},
  },
  DateWidget: {
    description:
      "Date typed día/mes/año in one text field (value ISO YYYY-MM-DD) whatever the browser's language; its hint says the range of the schema keyword x-edad / x-diasDesdeHoy with the x-mensaje text (src/core/dates.ts).",
    types: ['string'],
    options: {
      suggestDaysFromToday: {
        type: 'integer',
        description:
          'An empty field starts with today (Argentina) + N days, an answer the visitor may keep (1: tomorrow, the policy start).',
      },
    },
  },
  UnitNumberWidget: { description: 'Whole number with a unit after it (e.g. m²).', types: ['integer', 'number'], options: {} },
  CardNumberWidget: { description: 'Card number, grouped in fours, brand detected; never persisted.', types: ['string'], options: {} },
  CardExpiryWidget: { description: 'Card expiry MM/AA.', types: ['string'], options: {} },
  PlanCardsWidget: {
    drive: 'choice',
    description: "The quote's plans as selectable cards with premio and coverages; texts es.json › widgets.planes.",
    types: ['string'],
    group: true,
    options: { plans: { ...pointer, description: 'Pointer to the plans list in the engine context (e.g. /data/cotizacion/planes).' } },
  },
  CoverageTogglesWidget: {
    drive: 'multi',
    description: 'Optional coverages as switches; value = chosen codCobertura list; texts es.json › widgets.coberturas.',
    types: ['array'],
    group: true,
    options: { coverages: { ...pointer, description: 'Pointer to the optional coverages in the engine context.' } },
  },
} satisfies Record<string, WidgetSpec>;

/** Fields (`ui:field`) that render a whole object. */
export const FIELDS = {
  LocationField: {
    drive: 'location',
    description:
      'Locality picker (INDEC lists; a WAI-ARIA combobox that takes a name typed exactly) that owns the properties named in ui:options.fields and renders the rest as usual. With ui:options.province "search" one combobox finds the locality in every province («Lanús, Buenos Aires») and fills the province from it; otherwise a province dropdown comes first.',
    types: ['object'],
    options: {
      province: {
        enum: ['select', 'search'],
        description:
          '"select" (default): a province dropdown, then the localities of that province; "search": one combobox over every province, whose pick fills the province too.',
      },
      lists: {
        type: 'object',
        required: ['provinces', 'localities'],
        additionalProperties: false,
        properties: { provinces: { type: 'string' }, localities: { type: 'string' } },
        calls: true,
        description:
          'Flow calls (flow.json › calls) that list the provinces, and search the localities of a province (its bindings read /input/provincia and /input/q).',
      },
      fields: {
        type: 'object',
        required: ['province', 'provinceName', 'locality', 'localityName', 'department'],
        additionalProperties: false,
        properties: {
          province: { type: 'string' },
          provinceName: { type: 'string' },
          locality: { type: 'string' },
          localityName: { type: 'string' },
          department: { type: 'string' },
        },
        description: 'Which schema properties hold the province id/name, the locality id/name and the department.',
      },
    },
    /** Options naming properties whose label the field shows (es.json › <step>.fields.<prop>.label). */
    labelledOptions: ['fields.province', 'fields.locality'],
  },
  PhoneField: {
    drive: 'phone',
    description:
      'An Argentine phone as one input («11 5555-1234», «+54 9 3541 12-3456») that fills the area code and number properties named in ui:options.fields, split by libphonenumber-js (server/src/domain/validation/numeracion.ts › partirTelefono); the other properties render first, as usual. Label, help and placeholder: es.json › <step>.fields.<number>.',
    types: ['object'],
    options: {
      fields: {
        type: 'object',
        required: ['areaCode', 'number'],
        additionalProperties: false,
        properties: { areaCode: { type: 'string' }, number: { type: 'string' } },
        description: 'Which schema properties hold the area code (without the 0) and the subscriber number (without the 15).',
      },
    },
    labelledOptions: ['fields.number'],
  },
} satisfies Record<string, WidgetSpec & { labelledOptions?: string[] }>;

/**
 * Names of flow calls the ui schemas hand to widgets (options marked `calls: true`: every string value is a call
 * name), so the checker knows them as used and can check they exist.
 * @param uiSchemas ui schema per step id
 * @returns `{ call, step, at }` with `at` the JSON pointer of the option value in `schemas/<step>.ui.json`
 */
export function callsNamedInUi(uiSchemas: Record<string, Record<string, unknown>>): { call: string; step: string; at: string }[] {
  const specs: Record<string, WidgetSpec> = { ...(WIDGETS as Record<string, WidgetSpec>), ...(FIELDS as Record<string, WidgetSpec>) };
  const out: { call: string; step: string; at: string }[] = [];
  const visit = (ui: Record<string, unknown>, step: string, at: string) => {
    const kind = (ui['ui:field'] ?? ui['ui:widget']) as string | undefined;
    const options = (ui['ui:options'] ?? {}) as Record<string, unknown>;
    const spec = kind ? specs[kind] : undefined;
    for (const [name, value] of Object.entries(options)) {
      if (!spec?.options[name]?.calls || !value || typeof value !== 'object') continue;
      for (const [k, call] of Object.entries(value))
        if (typeof call === 'string') out.push({ call, step, at: `${at}/ui:options/${name}/${k}` });
    }
    for (const [key, child] of Object.entries(ui))
      if (!key.startsWith('ui:') && child && typeof child === 'object') visit(child as Record<string, unknown>, step, `${at}/${key}`);
  };
  for (const [step, ui] of Object.entries(uiSchemas)) visit(ui, step, '');
  return out;
}

/** Widgets whose label is a fieldset legend. */
export const GROUP_WIDGETS = new Set(
  Object.entries(WIDGETS as Record<string, WidgetSpec>)
    .filter(([, w]) => w.group)
    .map(([n]) => n),
);
/** Widgets that render their own label. */
export const SELF_LABELLED = new Set(
  Object.entries(WIDGETS as Record<string, WidgetSpec>)
    .filter(([, w]) => w.selfLabelled)
    .map(([n]) => n),
);
