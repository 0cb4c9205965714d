/**
 * reCAPTCHA Enterprise adapter (for deployments that prefer Google's bot score to the proof of work): one assessment per token, through
 * `POST {url}/v1/projects/{proyecto}/assessments?key={apiKey}` with `{ event: { token, siteKey, expectedAction } }`.
 * Settings: RECAPTCHA_PROJECT, RECAPTCHA_KEY, RECAPTCHA_API_KEY, RECAPTCHA_URL, RECAPTCHA_UMBRAL (server/README.md).
 */
import { DEFAULTS } from '../../config.ts';

/** The assessment client's settings (config.ts › RecaptchaConfig; url, umbral and timeoutMs default to config.ts › DEFAULTS). */
export interface RecaptchaOptions {
  /** Google Cloud project id. */
  proyecto: string;
  /** The site key the page's token was made with. */
  siteKey: string;
  /** API key allowed to call the assessments API. */
  apiKey: string;
  /** Base URL (tests point it at a local stand-in). */
  url?: string;
  /** Lowest score accepted, 0–1. */
  umbral?: number;
  /** How long one assessment may take, ms. */
  timeoutMs?: number;
}

/** The verdict on one token: `success` when valid, for the expected action and scored at least the threshold. */
export interface Evaluacion {
  success: boolean;
  /** 0 (bot) … 1 (person); 0 when the token is invalid. */
  score: number;
  action: string;
}

/** An assessment client. `evaluar` never throws for a bad token; it throws when the API cannot be reached or answers ≠ 2xx. */
export function createRecaptcha(opts: RecaptchaOptions) {
  const base = (opts.url ?? DEFAULTS.antibot.recaptcha.url).replace(/\/+$/, '');
  const umbral = opts.umbral ?? DEFAULTS.antibot.recaptcha.umbral;
  const endpoint = `${base}/v1/projects/${encodeURIComponent(opts.proyecto)}/assessments?key=${encodeURIComponent(opts.apiKey)}`;
  return {
    /**
     * @param token the page's reCAPTCHA token @param action the action the page declared (e.g. "cotizar")
     * @throws Error when the assessment API fails (the route answers 503)
     */
    async evaluar(token: string, action: string): Promise<Evaluacion> {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: { token, siteKey: opts.siteKey, expectedAction: action } }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULTS.antibot.recaptcha.timeoutMs),
      });
      if (!res.ok) throw new Error(`reCAPTCHA Enterprise respondió ${res.status}`);
      const body = (await res.json()) as { tokenProperties?: { valid?: boolean; action?: string }; riskAnalysis?: { score?: number } };
      const valid = body.tokenProperties?.valid === true;
      const score = valid && typeof body.riskAnalysis?.score === 'number' ? body.riskAnalysis.score : 0;
      const accion = body.tokenProperties?.action ?? action;
      return { success: valid && accion === action && score >= umbral, score: Math.min(1, Math.max(0, score)), action: accion };
    },
  };
}
export type Recaptcha = ReturnType<typeof createRecaptcha>;
