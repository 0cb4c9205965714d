/**
 * Named conditions of the flow, in the one condition language of the product: JSON Schema (the step schemas'
 * `if/then/else` are the same language). A condition maps context pointers to the schema the value there must
 * satisfy; it holds when every pointed value is present and valid — `true` means "present", `false` "absent":
 *
 *     "pagoConTarjeta": { "/answers/metodo-de-pago/methodPayment": { "const": "TC" } }
 *     "hayCampania":    { "/campaign": true }
 *     "emisionTerminada": { "/response/estado": { "enum": ["EMITIDA", "RECHAZADA"] } }
 *
 * `conditionSchema` turns one into a JSON Schema over the whole context, which a validator compiles: ajv at
 * build into standalone code for the browser (tools/validators/compile.ts, no `eval` under the CSP), ajv at
 * run time in Node (tools/check/conditions.ts). The engine only calls the compiled tests.
 */
import { parsePointer } from './pointer.ts';
import type { Condition, JsonSchema } from './types.ts';

export type { ConditionTest, ConditionTests } from './types.ts';

type Node = { type: 'object'; properties: Record<string, Node | JsonSchema>; required: string[] };

/**
 * The JSON Schema over the context that holds exactly when `cond` does.
 * @throws Error when a key is not a JSON pointer into the context (the checker reports it first)
 */
export function conditionSchema(cond: Condition): Record<string, unknown> {
  const root: Node = { type: 'object', properties: {}, required: [] };
  for (const [pointer, schema] of Object.entries(cond)) {
    const tokens = parsePointer(pointer);
    if (!tokens || tokens.length === 0) throw new Error(`Condición con un puntero inválido: "${pointer}"`);
    let node = root;
    tokens.forEach((token, i) => {
      const last = i === tokens.length - 1;
      if (schema !== false && !node.required.includes(token)) node.required.push(token);
      if (last) {
        node.properties[token] = schema;
        return;
      }
      const child = node.properties[token];
      if (!child || typeof child !== 'object' || (child as Node).type !== 'object' || !('required' in child)) {
        node.properties[token] = { type: 'object', properties: {}, required: [] };
      }
      node = node.properties[token] as Node;
    });
  }
  return root;
}
