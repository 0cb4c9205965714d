/**
 * The product's editable files once parsed: what a staffer changes without touching code (flow, step and ui
 * schemas, wire schemas, texts, migrations, tariffs). A type only: the Node loader (server/src/producto.ts) fills
 * it from disk, the flow checker (tools/check/project.ts) reads it, a test may hand it an edited copy.
 */
import type { FlowContract } from './flow/check-flow.ts';

type Json = Record<string, unknown>;

export interface ProductFiles {
  /** flow/flow.json as written (a FlowDef once the checker has accepted it). */
  flow: unknown;
  /** flow/flow.schema.json */
  flowSchema: object;
  /** flow/contract.json, when present. */
  contract?: FlowContract;
  /** Step schemas by step id (file schemas/<id>.schema.json). */
  schemas: Record<string, Json>;
  /** ui schemas by step id (file schemas/<id>.ui.json). */
  ui: Record<string, Json>;
  /** src/i18n/es.json */
  texts: Json;
  /** flow/migrations/<file>.json by file name. */
  migrations?: Record<string, Json>;
  /** The wire contract, schemas/api/<file>.json by file name. */
  wire?: Record<string, Json>;
  /** Tariffs by path in the product (server/tariffs/<version>.json): checked against the step schemas. */
  tariffs?: Record<string, Json>;
}
