/**
 * Device and browser labels for the campaign click log (SPEC §7 "carrying browser and device type",
 * §9 "Device type is mobile if the user agent matches phone or tablet patterns").
 * Plain regular expressions on purpose: this runs on step 1, so no UA-parser dependency.
 */

/** Tokens that phones and tablets put in their user agent (SPEC §9: phone or tablet patterns). */
const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|Tablet|Opera Mini|IEMobile|BlackBerry|BB10|webOS|hpwOS|Silk|Kindle/i;

/**
 * Device type for `id_extra` of the click log (SPEC §7, §9).
 * @param userAgent `navigator.userAgent`.
 * @param maxTouchPoints `navigator.maxTouchPoints`; iPadOS Safari reports a Macintosh desktop UA, so a
 *   "Macintosh" UA with more than one touch point is an iPad.
 * @returns `'mobile'` for phones and tablets, otherwise `'desktop'`.
 */
export function deviceType(userAgent: string, maxTouchPoints = 0): 'mobile' | 'desktop' {
  if (MOBILE_UA.test(userAgent)) return 'mobile';
  if (/Macintosh/.test(userAgent) && maxTouchPoints > 1) return 'mobile';
  return 'desktop';
}

/** Ordered: Chromium-based brands first, since their UAs also say "Chrome" and "Safari". */
const BROWSERS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\//],
  ['Samsung Internet', /\bSamsungBrowser\//],
  ['Opera', /\bOPR\/|\bOPT\/|\bOPiOS\/|\bOpera\b/],
  ['Chrome', /\bChrome\/|\bCriOS\/|\bChromium\//],
  ['Firefox', /\bFirefox\/|\bFxiOS\//],
  ['Safari', /\bVersion\/[\d.]+.*\bSafari\//],
];

/**
 * Browser name for `navegador` of the click log (SPEC §7).
 * @param userAgent `navigator.userAgent`.
 * @returns `'Edge' | 'Samsung Internet' | 'Opera' | 'Chrome' | 'Firefox' | 'Safari'`, else `'Otro'`
 *   (in-app web views without a `Safari/` token, unknown engines, empty string).
 */
export function browserName(userAgent: string): string {
  for (const [name, pattern] of BROWSERS) if (pattern.test(userAgent)) return name;
  return 'Otro';
}
