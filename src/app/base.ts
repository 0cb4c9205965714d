/**
 * The path the app is served under: `''` at the site's root (the default), `'/hogar'` for a build made with
 * `BASE_PATH=/hogar/ npm run build` (vite.config.ts › base; docs/operations.md › Sub-path). Every absolute URL the app makes —
 * its routes (the router's basename), the API (`${BASE}/api`, src/api/client.ts) and plain links — starts with it.
 * Outside Vite (Node scripts that import the client) it is `''`.
 */
export const BASE: string = ((import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/').replace(/\/+$/, '');

/** `pathname` without the base (`/hogar/seguro-hogar` → `/seguro-hogar`); unchanged when it is not under it. */
export function sinBase(pathname: string): string {
  return BASE && (pathname === BASE || pathname.startsWith(`${BASE}/`)) ? pathname.slice(BASE.length) || '/' : pathname;
}
