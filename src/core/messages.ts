/**
 * The one Spanish message catalogue (src/i18n/es.json) for code outside React: the API server's own errors
 * (`servidor.*`), the schema messages named by `x-mensaje` (`validacion.*`, or any key) and the web's non-React code.
 * Same `{{name}}` placeholders as i18next, so a key reads the same on both sides.
 * Pure: no i18next instance, safe under Node (server) and in the browser.
 */
import es from '../i18n/es.json' with { type: 'json' };

type Params = Record<string, string | number>;

/**
 * Areas (top-level keys) of es.json that only the API server reads: the browser's bundle leaves them out (vite.config.ts
 * › textosWeb: fewer bytes before a phone can use step 1), so a step schema, which the browser shows, may not
 * name them in `x-mensaje` (the checker says so).
 */
export const AREAS_SOLO_SERVIDOR: readonly string[] = ['servidor'];

/** Whatever sits at dotted `key` of `catalogue` (default es.json): a text, a list of paragraphs, a group; undefined when missing. */
export function buscarNodo(key: string, catalogue: unknown = es): unknown {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** The text at dotted `key` of `catalogue` (default es.json), or undefined when the key is missing or not a text. */
export function buscarMensaje(key: string, catalogue: unknown = es): string | undefined {
  const node = buscarNodo(key, catalogue);
  return typeof node === 'string' ? node : undefined;
}

/** True when `key` names a text of es.json (the checker uses it for `x-mensaje`). */
export function existeMensaje(key: string, catalogue: unknown = es): boolean {
  return buscarMensaje(key, catalogue) !== undefined;
}

/**
 * The Spanish text of `key` with `{{name}}` placeholders filled from `params`.
 * @param key dotted path into es.json, e.g. "servidor.cotizacionComprada"
 * @throws Error naming the key when es.json has no text there (a programming error: the checker and tests catch it)
 */
export function mensaje(key: string, params: Params = {}): string {
  const text = buscarMensaje(key);
  if (text === undefined) throw new Error(`Falta el mensaje "${key}" en src/i18n/es.json`);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, name: string) => (name in params ? String(params[name]) : all));
}
