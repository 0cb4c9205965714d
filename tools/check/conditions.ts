/**
 * The flow's conditions compiled with ajv at run time — for Node (the checker, the scripts, the tests). The
 * browser gets the same schemas precompiled at build (tools/validators/compile.ts → generated/conditions.js).
 */
import Ajv from 'ajv';
import { compileFlow, conditionSchema, type ConditionTests, type Flow, type FlowDef } from '../../src/engine/core/index.ts';

/** @returns a test per condition name. @throws Error when a condition is not a valid JSON Schema (ajv's message). */
export function compileConditions(conditions: FlowDef['conditions']): ConditionTests {
  const ajv = new Ajv({ strict: false, allErrors: false });
  const out: ConditionTests = {};
  for (const [name, cond] of Object.entries(conditions ?? {})) {
    const validate = ajv.compile(conditionSchema(cond));
    out[name] = (ctx) => validate(ctx) === true;
  }
  return out;
}

/** `compileFlow` with its conditions compiled by ajv (Node only). */
export function compileFlowNode(def: FlowDef): Flow {
  return compileFlow(def, compileConditions(def.conditions));
}
