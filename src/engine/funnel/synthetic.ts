/**
 * Which funnel journeys are synthetic: driven by a replay, the staff preview, the recorder or a test.
 * A module of its own, without Effector, so the preview, the recorder and the test tools import it cheaply.
 */

/**
 * Session-storage key that marks this tab's journeys as synthetic (value `'1'`). Set by our own code only — the staff
 * preview, the recorder, the browser replay's init script — never from a URL: a link cannot hide real traffic.
 */
export const SYNTHETIC_STORAGE_KEY = 'cotizador-hogar:embudo-sintetico';

/** Marks this tab's funnel journeys as synthetic (see {@link SYNTHETIC_STORAGE_KEY}); storage failures are ignored. */
export function markSynthetic(storage: Storage | undefined): void {
  try {
    storage?.setItem(SYNTHETIC_STORAGE_KEY, '1');
  } catch {
    // no storage: the journey stays unmarked (it only adds rows to a staff report)
  }
}

/**
 * Whether a browser journey is synthetic: the browser is driven by automation (`navigator.webdriver`, true under
 * Playwright — replays, e2e tests) or the tab was marked by {@link markSynthetic}.
 */
export function isSyntheticBrowser(nav: { webdriver?: boolean } | undefined, storage: Storage | undefined): boolean {
  if (nav?.webdriver === true) return true;
  try {
    return storage?.getItem(SYNTHETIC_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}
