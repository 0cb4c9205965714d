/**
 * The flow's calls against the API's own request schemas ("each call's resolved body against its wire request
 * schema"): the reference API is built over the product's schemas and tariff, in memory, and every call of the flow is
 * sent to it once with its bindings resolved on sample answers (each step schema's `examples[0]`). A call to a route
 * the API does not have, a field the API does not accept (a misspelt binding key), or a sample answer the API refuses
 * (a bound that differs between the step and the wire) is a problem with the flow's file and pointer. Values that only
 * exist at run time (`/data`, `/meta`, `/campaign`, `/input`, `/response`) are left out, and what the API then says
 * about them (required, not found) is not a problem.
 */
import { join } from 'node:path';
import { build } from '../server/src/app.ts';
import type { FlowProblem } from '../src/core/flow/check-flow.ts';
import { escapeToken, parsePointer } from '../src/core/flow/pointer.ts';
import type { Binding, FlowDef } from '../src/core/flow/types.ts';

type Json = Record<string, unknown>;
const RUNTIME = Symbol('run-time value');

/** A binding resolved on `answers`: sample values where a pointer reads /answers, RUNTIME elsewhere. */
function sample(binding: Binding | undefined, answers: Json): unknown {
  if (binding === undefined) return undefined;
  if (typeof binding === 'string') {
    const t = parsePointer(binding);
    if (!t || t[0] !== 'answers') return RUNTIME;
    let v: unknown = answers;
    for (const k of t.slice(1)) v = v && typeof v === 'object' ? (v as Json)[k] : undefined;
    return v === undefined ? RUNTIME : v;
  }
  if ('const' in binding && Object.keys(binding).length === 1) return (binding as { const: unknown }).const;
  if ('join' in binding && Array.isArray(binding.join)) return RUNTIME;
  if ('merge' in binding && Array.isArray(binding.merge)) {
    const out: Json = {};
    for (const part of binding.merge as Binding[]) {
      const v = sample(part, answers);
      if (v && typeof v === 'object') Object.assign(out, v);
    }
    return out;
  }
  const out: Json = {};
  for (const [k, b] of Object.entries(binding as Record<string, Binding>)) out[k] = sample(b, answers);
  return out;
}

/** `value` without RUNTIME leaves; `known` collects the JSON pointers of the leaves that are sample answers or constants. */
function strip(value: unknown, at: string, known: Set<string>): unknown {
  if (value === RUNTIME) return undefined;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      const s = strip(v, `${at}/${escapeToken(k)}`, known);
      if (s !== undefined) out[k] = s;
    }
    known.add(at);
    return out;
  }
  known.add(at);
  return value;
}

/**
 * @param root the product's root (its `schemas/`, `server/tariffs/2026-11.json`)
 * @returns problems naming flow/flow.json and the call's pointer; empty when every call fits the API
 */
export async function checkCallsAgainstApi(root: string, def: FlowDef, stepSchemas: Record<string, Json>): Promise<FlowProblem[]> {
  const answers: Json = {};
  for (const [id, schema] of Object.entries(stepSchemas)) answers[id] = (schema.examples as Json[] | undefined)?.[0] ?? {};
  const app = await build({
    schemasDir: join(root, 'schemas'),
    tariffFile: join(root, 'server/tariffs/2026-11.json'),
    rateLimitMax: 1_000_000,
  } as never);
  const problems: FlowProblem[] = [];
  try {
    const csrf = await app.inject({ method: 'GET', url: '/api/set-csrf' });
    const cookie = csrf.cookies
      .filter((c) => c.name !== 'XSRF-TOKEN')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const token = (csrf.json() as { csrfToken: string }).csrfToken;
    await app.ready();
    const norm = (p: string) => p.replace(/\{\w+\}/g, '{}');
    const doc = (app as unknown as { swagger: () => { paths: Record<string, Record<string, unknown>> } }).swagger();
    const routes = new Set(
      Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${norm(p)}`)),
    );
    for (const [name, call] of Object.entries(def.calls)) {
      const at = `/calls/${escapeToken(name)}`;
      if (!routes.has(`${call.method} ${norm(`/api${call.path}`)}`)) {
        problems.push({ pointer: `${at}/path`, message: `${call.method} /api${call.path}: la API no tiene esa ruta` });
        continue;
      }
      const known = new Set<string>();
      const params = (sample(call.params as Binding | undefined, answers) ?? {}) as Json;
      const path = call.path.replace(/\{(\w+)\}/g, (_, k: string) =>
        encodeURIComponent(typeof params[k] === 'string' ? (params[k] as string) : 'x'),
      );
      const payload =
        call.method === 'POST' ? ((strip(sample(call.body as Binding | undefined, answers), '', known) as Json) ?? {}) : undefined;
      const query = call.method === 'GET' && call.query ? (strip(sample(call.query as Binding, answers), '', known) as Json) : undefined;
      const qs = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
      const res = await app.inject({
        method: call.method,
        url: `/api${path}${qs}`,
        headers: { cookie, 'x-xsrf-token': token },
        ...(payload ? { payload } : {}),
      });
      if (res.statusCode !== 400) continue;
      const errors = ((res.json() as { errors?: { field: string; message: string }[] }).errors ?? []).filter(
        (e) => typeof e.field === 'string',
      );
      for (const e of errors) {
        const field = e.field.replace(/^\/(body|query|querystring)/, '');
        const parent = field.slice(0, field.lastIndexOf('/'));
        const ours = known.has(field) || (known.has(parent) && e.message === 'Este dato no corresponde a este pedido.');
        if (!ours) continue; // a run-time value left out (required, unknown id): not the flow's fault
        const where = call.method === 'GET' ? 'query' : 'body';
        problems.push({
          pointer: `${at}/${where}${field}`,
          message: `la API rechaza "${field.slice(1)}" de ${call.method} /api${call.path}: ${e.message}`,
        });
      }
    }
  } finally {
    await app.close();
  }
  return problems;
}
