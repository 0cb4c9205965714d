/**
 * Journey fixtures (flow/journey.schema.json): what a tester writes or records, and what the replays read.
 * Loading and validating (Node), and the small pure rules every replay shares (dates relative to today, call matching).
 */
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import schema from '../../flow/journey.schema.json' with { type: 'json' };
import type { ExpectedCall, Journey } from '../../src/recorder/journey.ts';

export type { ExpectedCall, Journey, JourneyAction, JourneyStep, StubbedReply } from '../../src/recorder/journey.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/**
 * Reads and checks a fixture file.
 * @throws Error naming the file and each JSON pointer that breaks flow/journey.schema.json
 */
export function loadJourney(file: string): Journey {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!validate(data)) {
    throw new Error(
      `${file} no cumple flow/journey.schema.json:\n${(validate.errors ?? []).map((e) => `  ${e.instancePath || '/'}: ${e.message}`).join('\n')}`,
    );
  }
  return data as unknown as Journey;
}

/**
 * An answer as the visitor types it: `"$hoy+N"` / `"$hoy-N"` become the date N days from today in Argentina
 * (YYYY-MM-DD), so a fixture with a vigencia start stays valid whenever it is replayed; other values unchanged.
 */
export function resolveAnswer(value: unknown, now = new Date()): unknown {
  if (typeof value !== 'string') return value;
  const m = /^\$hoy([+-]\d+)?$/.exec(value);
  if (!m) return value;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(now);
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + Number(m[1] ?? 0));
  return d.toISOString().slice(0, 10);
}

function subset(expected: unknown, actual: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([k, v]) => subset(v, (actual as Record<string, unknown>)[k]));
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

/** True when a call the app made (`path` under /api, parsed JSON body) is the one `expected` describes. */
export function callMatches(expected: ExpectedCall, actual: { method: string; path: string; body?: unknown }): boolean {
  if (expected.method !== actual.method) return false;
  const want = expected.path.split('/');
  const got = actual.path.split('?')[0].split('/');
  if (want.length !== got.length || !want.every((seg, i) => seg === '*' || seg === got[i])) return false;
  return expected.body === undefined || subset(expected.body, actual.body);
}

/**
 * The route of `url` under the deployment's base path (`/hogar` for https://qa.example.com/hogar): the path after it
 * without slashes at either end; `undefined` when the URL is not under the base (another site or page).
 */
export function routeUnder(url: string, baseUrl: string): string | undefined {
  const base = new URL(baseUrl);
  const u = new URL(url);
  const prefix = base.pathname.replace(/\/+$/, '');
  const path = decodeURIComponent(u.pathname);
  if (u.origin !== base.origin || (path !== prefix && !path.startsWith(`${prefix}/`))) return undefined;
  return path.slice(prefix.length).replace(/^\/+/, '').replace(/\/+$/, '');
}
