/**
 * What a staffer can break with a JSON edit, caught by the checker with the file and the JSON pointer
 * (issue: "the checker also passed…"). Each case edits a copy of the shipped product files, as JSON only.
 */
import { describe, expect, it } from 'vitest';
import { checkProduct, type ProductFiles } from '../../tools/check/project.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { loadProduct } from '../../server/src/producto.ts';

const shipped = loadProduct('.');
const copy = (): ProductFiles & { flow: FlowDef } => structuredClone(shipped) as ProductFiles & { flow: FlowDef };
const step = (files: { flow: FlowDef }, id: string) => files.flow.steps.find((s) => s.id === id) as FlowDef['steps'][number];
const where = (files: ProductFiles) =>
  checkProduct(files).problems.map((p) => `${p.severity === 'warning' ? 'aviso ' : ''}${p.file ?? 'flow/flow.json'}#${p.pointer}`);

describe('flow:check', () => {
  it('passes the shipped product with no error and no warning', () => {
    expect(checkProduct(shipped).problems).toEqual([]);
  });

  it('a misspelt widget name', () => {
    const f = copy();
    (f.ui.propiedad.tipoVivienda as Record<string, unknown>)['ui:widget'] = 'ChoiceCardWidget';
    const report = checkProduct(f);
    expect(where(f)).toEqual(['schemas/propiedad.ui.json#/tipoVivienda/ui:widget']);
    expect(report.problems[0].message).toMatch(/el widget "ChoiceCardWidget" no existe; los que hay: ChoiceCardsWidget/);
  });

  it('a ui:options key the widget does not read, and a bad option value', () => {
    const f = copy();
    (f.ui.metros.metros as Record<string, unknown>)['ui:options'] = { unit: 'm²', unidad: 'm²' };
    (f.ui.propiedad.tipoVivienda as { 'ui:options': Record<string, unknown> })['ui:options'].icons = { CASA: 'castillo' };
    expect(where(f)).toEqual([
      'schemas/propiedad.ui.json#/tipoVivienda/ui:options/icons',
      'schemas/metros.ui.json#/metros/ui:options/unidad',
    ]);
  });

  it('a ui entry for a field the schema does not have', () => {
    const f = copy();
    f.ui.contacto.telefono = { 'ui:options': { inputMode: 'numeric' } };
    expect(where(f)).toEqual(['schemas/contacto.ui.json#/telefono']);
  });

  it('Markdown in descriptions or help is refused (the build carries no Markdown renderer: vite.config.ts › sinMarkdown)', () => {
    const f = copy();
    f.ui.metros['ui:enableMarkdownInDescription'] = true;
    (f.ui.metros.metros as Record<string, unknown>)['ui:options'] = { unit: 'm²', enableMarkdownInHelp: true };
    expect(where(f)).toEqual([
      'schemas/metros.ui.json#/metros/ui:options/enableMarkdownInHelp',
      'schemas/metros.ui.json#/ui:enableMarkdownInDescription',
    ]);
  });

  it('a binding pointer typo (the field would silently vanish from the request)', () => {
    const f = copy();
    (f.flow.calls.cotizar.body as Record<string, string>).metros = '/answers/metros/metro';
    const report = checkProduct(f);
    expect(where(f)).toEqual(['flow/flow.json#/calls/cotizar/body/metros']);
    expect(report.problems[0].message).toMatch(/lee "metro", que no es un campo de schemas\/metros.schema.json/);
  });

  it('a new step without its texts in es.json', () => {
    const f = copy();
    f.flow.steps.splice(4, 0, { id: 'alarma', flag: 'alarm', next: 'localidad' } as FlowDef['steps'][number]);
    step(f, 'metros').next = 'alarma';
    f.schemas.alarma = {
      $id: 'alarma.schema.json',
      type: 'object',
      required: ['tieneAlarma'],
      properties: { tieneAlarma: { type: 'string', enum: ['S', 'N'] } },
    };
    f.ui.alarma = { tieneAlarma: { 'ui:widget': 'ChoiceCardsWidget' } };
    expect(where(f).filter((w) => !w.startsWith('aviso'))).toEqual([
      'src/i18n/es.json#/alarma/titulo',
      'src/i18n/es.json#/alarma/fields/tieneAlarma/label',
      'src/i18n/es.json#/alarma/fields/tieneAlarma/options/S',
      'src/i18n/es.json#/alarma/fields/tieneAlarma/options/N',
    ]);
    // and it says the SPEC contract changed (a warning, not an error)
    expect(where(f).filter((w) => w.startsWith('aviso'))).toEqual([
      'aviso flow/contract.json#/routes',
      'aviso flow/contract.json#/flags',
      'aviso flow/contract.json#/guardOrder',
    ]);
  });

  it('removing a step leaves no orphan behind: its calls, the bindings to its answers, its schema files', () => {
    const f = copy();
    f.flow.steps = f.flow.steps.filter((s) => s.id !== 'adicionales');
    step(f, 'cotizacion').next = 'datos-personales';
    const errors = checkProduct(f)
      .problems.filter((p) => p.severity !== 'warning')
      .map((p) => `${p.file ?? 'flow/flow.json'}#${p.pointer}`);
    expect(errors).toEqual(
      expect.arrayContaining([
        'flow/flow.json#/calls/solicitar/body/coberturasOpcionales',
        'flow/flow.json#/calls/recotizarAdicionales/body/coberturasOpcionales',
        'flow/flow.json#/calls/recotizarAdicionales',
        'schemas/adicionales.schema.json#',
        'schemas/adicionales.ui.json#',
      ]),
    );
  });

  it('reordering two steps by next alone is valid (only the SPEC contract warns)', () => {
    const f = copy();
    step(f, 'propiedad').next = 'metros';
    step(f, 'metros').next = 'permanencia';
    step(f, 'permanencia').next = 'localidad';
    const problems = checkProduct(f).problems;
    expect(problems.filter((p) => p.severity !== 'warning')).toEqual([]);
    expect(problems.map((p) => `${p.file}#${p.pointer}`)).toEqual([
      'flow/contract.json#/routes',
      'flow/contract.json#/flags',
      'flow/contract.json#/guardOrder',
    ]);
  });

  it('unreachable steps, dead ends, loops with no exit and an ambiguous back', () => {
    const f = copy();
    step(f, 'vigencia').next = 'contacto'; // contacto ↔ vigencia: a loop with no way out
    const problems = where(f);
    expect(problems).toEqual(
      expect.arrayContaining(['flow/flow.json#/steps/5/next', 'flow/flow.json#/steps/6/next', 'flow/flow.json#/steps/7']),
    );
    const g = copy();
    delete step(g, 'direccion').next; // a dead end
    expect(where(g)).toEqual(expect.arrayContaining(['flow/flow.json#/steps/10/next']));
    const h = copy();
    step(h, 'cotizacion').next = [{ when: 'chatHabilitado', to: 'adicionales' }, { to: 'datos-personales' }];
    expect(checkProduct(h).problems.find((p) => p.pointer === '/steps/9')?.message).toMatch(
      /varios pasos anteriores \(cotizacion, adicionales\)/,
    );
  });

  it('a version bump without a migration warns that saved journeys restart; a migration to a missing step is an error', () => {
    const f = copy();
    f.flow.version = 3;
    expect(where(f)).toEqual(['aviso flow/flow.json#/version']);
    f.migrations = { ...f.migrations, '3.json': { from: 2, to: 3, operations: [{ op: 'mapFlag', from: 'step3', to: 'adicional' }] } };
    expect(where(f)).toEqual(['flow/migrations/3.json#/operations/0/to']);
  });

  it('a sample answer that no longer fits its schema', () => {
    const f = copy();
    (f.schemas.metros.examples as Record<string, unknown>[])[0] = { metros: 5 };
    expect(where(f)).toEqual(['schemas/metros.schema.json#/examples/0']);
  });

  it('a broken structure is reported by the flow schema with its pointer', () => {
    const f = copy();
    (f.flow.steps[3] as unknown as Record<string, unknown>).siguiente = 'x';
    expect(where(f)).toEqual(['flow/flow.json#/steps/3']);
  });

  it('conditions are JSON Schema: the old show/disable options and a malformed condition are named', () => {
    const f = copy();
    (f.ui.propiedad.barrioCerrado as { 'ui:options': Record<string, unknown> })['ui:options'] = { showWhen: { tipoVivienda: 'CASA' } };
    f.flow.conditions.pagoConTarjeta = { '/answers/metodo-de-pago/methodPayment': { type: 'cadena' } };
    f.flow.conditions.pagoConCbu = { '/answers/metodo-pago/methodPayment': { const: 'CBU' } };
    expect(where(f)).toEqual([
      'flow/flow.json#/conditions/pagoConCbu/~1answers~1metodo-pago~1methodPayment',
      'flow/flow.json#/conditions/pagoConTarjeta',
      'schemas/propiedad.ui.json#/barrioCerrado/ui:options/showWhen',
    ]);
  });

  it('a list the widget asks for through a call the flow does not declare', () => {
    const f = copy();
    const opts = (f.ui.localidad['ui:options'] as { lists: Record<string, string> }).lists;
    opts.localities = 'buscarLocalidad';
    expect(where(f)).toEqual(['schemas/localidad.ui.json#/ui:options/lists/localities']);
  });

  it('a wire field that reads a step schema the staffer deleted', () => {
    const f = copy();
    delete f.schemas.adicionales;
    delete f.ui.adicionales;
    const wire = where(f).filter((w) => w.startsWith('schemas/api/'));
    expect(wire).toEqual([
      'schemas/api/cotizacion.json#/$defs/DatosPresupuestoBody/properties/coberturasOpcionales/$ref',
      'schemas/api/emision.json#/$defs/SolicitarBody/properties/coberturasOpcionales/$ref',
    ]);
  });

  it('a funnel split by typed text (a name, a card number) instead of a choice, or by a step that does not exist', () => {
    const f = copy();
    f.flow.funnel!.splitBy = { 'metodo-de-pago': 'numberPaymentCard', 'datos-personales': 'methodPayment', 'no-existe': 'x' };
    expect(where(f)).toEqual([
      'flow/flow.json#/funnel/splitBy/no-existe',
      'flow/flow.json#/funnel/splitBy/metodo-de-pago',
      'flow/flow.json#/funnel/splitBy/datos-personales',
    ]);
    expect(checkProduct(f).problems[1].message).toMatch(/"numberPaymentCard" no es una lista de opciones .* nunca lo escrito/);
  });
});
