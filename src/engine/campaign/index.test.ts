// @vitest-environment jsdom -- reads localStorage/sessionStorage and window events as the browser has them
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allSettled, createEffect, fork } from 'effector';
import { ApiError } from '../../api/client';
import flowJson from '../../../flow/flow.json';
import { buildRequest } from '../calls.ts';
import type { FlowDef } from '../core/index.ts';
import {
  CAMPAIGN_STORAGE_KEY,
  CLICK_LOG_STORAGE_KEY,
  SESSION_STORAGE_KEY,
  captureCampaign,
  clearCampaign,
  clickLogDue,
  createCampaignModel,
  getSessionKey,
  loadCampaign,
  markClickLogSent,
  saveCampaign,
  type ClickLogInput,
} from './index';

const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);
const MIN = 60_000;
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC_SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

/** A Storage whose every method throws, like a browser with storage blocked. */
const brokenStorage = (): Storage =>
  ({
    getItem: () => {
      throw new DOMException('denied', 'SecurityError');
    },
    setItem: () => {
      throw new DOMException('denied', 'SecurityError');
    },
    removeItem: () => {
      throw new DOMException('denied', 'SecurityError');
    },
    clear: () => {},
    key: () => null,
    length: 0,
  }) as Storage;

let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('captureCampaign', () => {
  it('keeps the known keys, trimmed, and drops empty and unknown ones', () => {
    expect(captureCampaign('?gclid=%20abc123%20&utm_campaign=hogar-verano&gad_source=&foo=bar')).toEqual({
      gclid: 'abc123',
      utm_campaign: 'hogar-verano',
    });
  });

  it('accepts a query without "?" and takes the first non-empty repeat', () => {
    expect(captureCampaign('fbclid=&fbclid=IwAR0x&gad_campaignid=987')).toEqual({ fbclid: 'IwAR0x', gad_campaignid: '987' });
  });

  it('returns null when there is no campaign', () => {
    expect(captureCampaign('')).toBeNull();
    expect(captureCampaign('?utm_source=google&gclid=%20%20')).toBeNull();
  });
});

describe('saveCampaign / loadCampaign / clearCampaign (SPEC §9: 10 minutes)', () => {
  it('keeps the parameters for 9:59 and drops them at 10:00', () => {
    saveCampaign(localStorage, { gclid: 'abc' }, T0);
    expect(JSON.parse(localStorage.getItem(CAMPAIGN_STORAGE_KEY)!)).toEqual({ params: { gclid: 'abc' }, expiresAt: T0 + 10 * MIN });
    expect(loadCampaign(localStorage, T0 + 10 * MIN - 1_000)).toEqual({ gclid: 'abc' });
    expect(loadCampaign(localStorage, T0 + 10 * MIN)).toBeNull();
    expect(localStorage.getItem(CAMPAIGN_STORAGE_KEY)).toBeNull();
  });

  it('removes a corrupted entry', () => {
    localStorage.setItem(CAMPAIGN_STORAGE_KEY, '{"params":');
    expect(loadCampaign(localStorage, T0)).toBeNull();
    expect(localStorage.getItem(CAMPAIGN_STORAGE_KEY)).toBeNull();
    localStorage.setItem(CAMPAIGN_STORAGE_KEY, JSON.stringify({ params: { gclid: 'x' } })); // no expiresAt
    expect(loadCampaign(localStorage, T0)).toBeNull();
    expect(localStorage.getItem(CAMPAIGN_STORAGE_KEY)).toBeNull();
  });

  it('clears the stored parameters', () => {
    saveCampaign(localStorage, { fbclid: 'f' }, T0);
    clearCampaign(localStorage);
    expect(localStorage.getItem(CAMPAIGN_STORAGE_KEY)).toBeNull();
  });

  it('logs and carries on when storage fails', () => {
    expect(() => saveCampaign(brokenStorage(), { gclid: 'a' }, T0)).not.toThrow();
    expect(loadCampaign(brokenStorage(), T0)).toBeNull();
    expect(() => clearCampaign(brokenStorage())).not.toThrow();
    expect(() => saveCampaign(undefined, { gclid: 'a' }, T0)).not.toThrow();
    expect(errorSpy).toHaveBeenCalledTimes(4);
  });
});

describe('clickLogDue / markClickLogSent (SPEC §7, §9)', () => {
  it('is due when never sent, not within 10 minutes, due again at 10 minutes', () => {
    expect(clickLogDue(localStorage, 's1', T0)).toBe(true);
    markClickLogSent(localStorage, 's1', T0);
    expect(clickLogDue(localStorage, 's1', T0 + 10 * MIN - 1)).toBe(false);
    expect(clickLogDue(localStorage, 's2', T0 + MIN)).toBe(true);
    expect(clickLogDue(localStorage, 's1', T0 + 10 * MIN)).toBe(true);
  });

  it('prunes entries older than the window', () => {
    markClickLogSent(localStorage, 'old', T0);
    markClickLogSent(localStorage, 'recent', T0 + 5 * MIN);
    markClickLogSent(localStorage, 'new', T0 + 11 * MIN);
    expect(JSON.parse(localStorage.getItem(CLICK_LOG_STORAGE_KEY)!)).toEqual({
      recent: T0 + 5 * MIN,
      new: T0 + 11 * MIN,
    });
  });

  it('treats unreadable storage as due and never throws', () => {
    localStorage.setItem(CLICK_LOG_STORAGE_KEY, 'not json');
    expect(clickLogDue(localStorage, 's1', T0)).toBe(true);
    markClickLogSent(localStorage, 's1', T0);
    expect(clickLogDue(localStorage, 's1', T0 + MIN)).toBe(false);
    expect(clickLogDue(brokenStorage(), 's1', T0)).toBe(true);
    expect(() => markClickLogSent(brokenStorage(), 's1', T0)).not.toThrow();
  });
});

describe('getSessionKey', () => {
  it('creates one id per tab session and reuses it', () => {
    const first = getSessionKey(sessionStorage);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBe(first);
    expect(getSessionKey(sessionStorage)).toBe(first);
    sessionStorage.clear(); // a new tab
    expect(getSessionKey(sessionStorage)).not.toBe(first);
  });

  it('falls back to one id per page when session storage fails', () => {
    const a = getSessionKey(brokenStorage());
    expect(getSessionKey(undefined)).toBe(a);
    expect(errorSpy).toHaveBeenCalled();
  });
});

describe('createCampaignModel', () => {
  function setup(session: () => Storage | undefined = () => sessionStorage) {
    let clock = T0;
    const clickLogFx = createEffect<ClickLogInput, unknown>(() => {
      throw new Error('the real call must not run in tests');
    });
    const model = createCampaignModel({
      clickLogFx,
      storage: () => localStorage,
      session,
      now: () => clock,
    });
    const sent: ClickLogInput[] = [];
    const ok = vi.fn(async (payload: ClickLogInput) => {
      sent.push(payload);
      return { ok: true, id: sent.length };
    });
    const scope = fork({ handlers: [[clickLogFx, ok]] });
    return {
      model,
      clickLogFx,
      scope,
      sent,
      advance: (ms: number) => {
        clock += ms;
      },
      land: (search: string, userAgent = ANDROID_CHROME, s = scope) =>
        allSettled(model.landed, { scope: s, params: { search, userAgent } }),
    };
  }

  it('captures the URL campaign, stores it for 10 minutes and sends one click log', async () => {
    const t = setup();
    await t.land('?gclid=abc&utm_campaign=hogar');
    expect(t.scope.getState(t.model.$campaign)).toEqual({ gclid: 'abc', utm_campaign: 'hogar' });
    expect(JSON.parse(localStorage.getItem(CAMPAIGN_STORAGE_KEY)!).expiresAt).toBe(T0 + 10 * MIN);
    expect(t.sent).toEqual([
      {
        navegador: 'Chrome',
        dispositivo: 'mobile',
        parametros: '{"gclid":"abc","utm_campaign":"hogar"}',
      },
    ]);
  });

  it('reports an iPad (Macintosh UA with touch) as mobile Safari', async () => {
    const t = setup();
    await allSettled(t.model.landed, {
      scope: t.scope,
      params: { search: '?fbclid=f1', userAgent: MAC_SAFARI, maxTouchPoints: 5 },
    });
    expect(t.sent[0]).toMatchObject({ navegador: 'Safari', dispositivo: 'mobile' });
  });

  it('sends no log and holds null without a campaign', async () => {
    const t = setup();
    await t.land('?utm_source=google');
    expect(t.scope.getState(t.model.$campaign)).toBeNull();
    expect(t.sent).toEqual([]);
    expect(localStorage.getItem(CAMPAIGN_STORAGE_KEY)).toBeNull();
  });

  it('reuses the stored campaign on a later page without params, until it expires', async () => {
    const t = setup();
    await t.land('?gclid=abc');
    t.advance(10 * MIN - 1_000);
    await t.land('');
    expect(t.scope.getState(t.model.$campaign)).toEqual({ gclid: 'abc' });
    t.advance(1_000);
    await t.land('');
    expect(t.scope.getState(t.model.$campaign)).toBeNull();
  });

  it('logs once per 10 minutes per session key', async () => {
    const t = setup();
    await t.land('?gclid=abc');
    t.advance(5 * MIN);
    await t.land('?gclid=abc');
    expect(t.sent).toHaveLength(1);

    t.advance(5 * MIN); // 10 minutes after the first log
    await t.land('?gclid=abc');
    expect(t.sent).toHaveLength(2);
  });

  it('logs again for another tab session within the window', async () => {
    const t = setup();
    await t.land('?gclid=abc');
    sessionStorage.clear(); // a new tab gets a new session key; local storage is shared
    t.advance(MIN);
    await t.land('?gclid=abc');
    expect(t.sent).toHaveLength(2);
  });

  it('does not keep a log the server refused, and retries on the next landing', async () => {
    const t = setup();
    const failing = fork({
      handlers: [
        [
          t.clickLogFx,
          async () => {
            throw new ApiError(503, 'ERROR_SERVIDOR', 'Tuvimos un problema.');
          },
        ],
      ],
    });
    await t.land('?gclid=abc', ANDROID_CHROME, failing);
    expect(failing.getState(t.model.$campaign)).toEqual({ gclid: 'abc' }); // the campaign is kept anyway
    expect(JSON.parse(localStorage.getItem(CLICK_LOG_STORAGE_KEY) ?? '{}')).toEqual({}); // no record left for the session
    expect(errorSpy).toHaveBeenCalledWith('[campaña] No se pudo registrar el clic de campaña', expect.any(Error));

    await t.land('?gclid=abc');
    expect(t.sent).toHaveLength(1);
  });

  it('a second landing while the first log is still in flight does not send it again', async () => {
    const t = setup();
    let release!: () => void;
    const slow = fork({
      handlers: [
        [
          t.clickLogFx,
          (payload: ClickLogInput) =>
            new Promise((resolve) => {
              t.sent.push(payload);
              release = () => resolve({ ok: true, id: 1 });
            }),
        ],
      ],
    });
    const first = t.land('?gclid=abc', ANDROID_CHROME, slow);
    await Promise.resolve();
    await t.land(
      '?gclid=abc',
      ANDROID_CHROME,
      fork({ handlers: [[t.clickLogFx, async (p: ClickLogInput) => (t.sent.push(p), { ok: true, id: 2 })]] }),
    );
    release();
    await first;
    expect(t.sent).toHaveLength(1);
  });

  it('after a network failure or abort the log may have arrived: it is not sent again (at most once)', async () => {
    const t = setup();
    const offline = fork({
      handlers: [
        [
          t.clickLogFx,
          async () => {
            throw new ApiError(0, 'RED', 'No pudimos conectarnos.');
          },
        ],
      ],
    });
    await t.land('?gclid=abc', ANDROID_CHROME, offline);
    expect(errorSpy).toHaveBeenCalled();
    await t.land('?gclid=abc');
    expect(t.sent).toHaveLength(0);
  });

  it('treats an Error resolved as a value as a failure (SPEC §8 errors as values)', async () => {
    const t = setup();
    const asValue = fork({ handlers: [[t.clickLogFx, async () => new ApiError(500, 'ERROR_SERVIDOR', 'Tuvimos un problema.')]] });
    await t.land('?gclid=abc', ANDROID_CHROME, asValue);
    expect(JSON.parse(localStorage.getItem(CLICK_LOG_STORAGE_KEY) ?? '{}')).toEqual({}); // no record left for the session
    expect(errorSpy).toHaveBeenCalled();
  });

  it('ignores log results of other callers of the same effect', async () => {
    const t = setup();
    await allSettled(t.clickLogFx, {
      scope: t.scope,
      params: {
        navegador: 'Chrome',
        dispositivo: 'desktop',
        parametros: '{}',
      },
    });
    expect(JSON.parse(localStorage.getItem(CLICK_LOG_STORAGE_KEY) ?? '{}')).toEqual({}); // no record left for the session
  });

  it('cleared removes the stored campaign and resets $campaign', async () => {
    const t = setup();
    await t.land('?gclid=abc');
    await allSettled(t.model.cleared, { scope: t.scope });
    expect(localStorage.getItem(CAMPAIGN_STORAGE_KEY)).toBeNull();
    expect(t.scope.getState(t.model.$campaign)).toBeNull();
    await t.land('');
    expect(t.scope.getState(t.model.$campaign)).toBeNull();
  });

  it('keeps working when every storage throws', async () => {
    const t = setup(brokenStorage);
    const broken = createCampaignModel({
      clickLogFx: t.clickLogFx,
      storage: brokenStorage,
      session: brokenStorage,
      now: () => T0,
    });
    await allSettled(broken.landed, { scope: t.scope, params: { search: '?gclid=abc', userAgent: ANDROID_CHROME } });
    expect(t.scope.getState(broken.$campaign)).toEqual({ gclid: 'abc' });
    expect(t.sent).toHaveLength(1);
    await allSettled(broken.cleared, { scope: t.scope });
    expect(t.scope.getState(broken.$campaign)).toBeNull();
  });
});

describe("the shipped flow's click-log call", () => {
  it('sends the campaign click as the log the server keeps (schemas/api/README.md › insertar-log-ok)', () => {
    const flow = flowJson as unknown as FlowDef;
    const call = flow.calls[flow.campaign!.clickLog];
    const input: ClickLogInput = { navegador: 'Chrome', dispositivo: 'mobile', parametros: '{"gclid":"abc"}' };
    const ctx = { answers: {}, data: {}, flags: {}, campaign: { gclid: 'abc' }, meta: { app: 'cotizador-hogar', version: '1.2.7' }, input };
    expect(buildRequest(call, ctx as never)).toEqual({
      method: 'POST',
      path: '/logs/insertar-log-ok',
      body: {
        app: 'cotizador-hogar',
        proceso: 'Cotizador Hogar',
        proceso_detalle: 'LogCampaniaUnicClic',
        navegador: 'Chrome',
        id_extra: 'mobile',
        version: '1.2.7',
        request: '{"gclid":"abc"}',
      },
    });
  });
});
