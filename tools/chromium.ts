/**
 * How the tests and the replay CLI start Chromium: Debian's build (Playwright's own download does not work here),
 * headless, without the browser UI nobody sees.
 *
 * Chromium 156's headless mode is the whole browser: every window (one per Playwright context) preloads the WebUI
 * omnibox popups (chrome://omnibox-popup.top-chrome/, its AI-mode page too) in a renderer of their own. Measured here:
 * ~1 CPU-second per context, ~40 % of what a context costs Chromium, for a popup a headless page never opens. The
 * features behind them are switched off below. Chromium keeps only the last `--disable-features` switch, so the list
 * also repeats the features Playwright itself switches off (playwright-core 1.65, chromiumSwitches.ts), which passing
 * one of our own would otherwise undo.
 */

/** The Chromium binary: `CHROMIUM_PATH`, else Debian's launcher. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Switched off by Playwright 1.65 (kept: our `--disable-features` replaces its own). */
const DE_PLAYWRIGHT = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

/** The WebUI omnibox popups every headless window preloads and never shows. */
const POPUPS_DEL_OMNIBOX = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** Arguments for `chromium.launch({ args })` (with `headless`, as Playwright passes it, or `--headless`). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${[...DE_PLAYWRIGHT, ...POPUPS_DEL_OMNIBOX].join(',')}`,
];
