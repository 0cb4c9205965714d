/**
 * The fixtures issue's "done when": a journey recorded in Chromium with a 4-digit area code (3541, Villa Carlos Paz,
 * Córdoba: 3541 + 6 digits) replays unchanged 200 days later — headless (`npm run replay -- --headless`, the engine
 * against the API in-process) and in Chromium (tools/replay/browser.ts › replayInBrowser, `now` moves the page's clock)
 * against an API whose clock is moved too. The later day is a Node preload (tests/reloj-adelantado.ts,
 * RELOJ_ADELANTO_DIAS): no product code reads it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import type { ServerProcess } from '../../server/test/processes.ts';
import { startOwnApi } from '../support/own-api.ts';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import { loadJourney, resolveAnswer } from '../../tools/replay/fixture.ts';
import { choosePlanAndPersonalData, payWithCard, quoteAHome, UNA_PANTALLA } from './journey';

const DIAS = 200;
const iso = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(d);
/**
 * How far every clock of the replay is moved (ms): to noon in Buenos Aires (UTC−3) DIAS days from now. Noon, not
 * "now + DIAS days": the page's clock and the API's are moved at different moments, and a run near midnight would
 * otherwise put them on two different days (a CI run at 23:59 saw the API's window one day ahead of the page's).
 */
const ADELANTO_MS = Date.parse(`${iso(new Date(Date.now() + DIAS * 86_400_000))}T12:00:00-03:00`) - Date.now();
/** Node options that put a process at the later day (added to the ones it already has). */
const otroDia = () => ({
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${resolve('tests/reloj-adelantado.ts')}`.trim(),
  RELOJ_ADELANTO_DIAS: String(ADELANTO_MS / 86_400_000),
});

function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((ok) => {
    execFile(process.execPath, args, { env: { ...process.env, ...env }, maxBuffer: 10_000_000 }, (err, stdout, stderr) => {
      ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr });
    });
  });
}

test(
  'un recorrido grabado con código de área 3541 se reproduce igual 200 días después, sin navegador y en Chromium',
  UNA_PANTALLA,
  async ({ page, browser }, info) => {
    test.setTimeout(300_000);

    // 1. recorded today, in Chromium, with a Córdoba mobile: 3541 + 6 digits
    await quoteAHome(page, info, '?grabar=1', { areaCod: '3541', numero: '987654' });
    await choosePlanAndPersonalData(page, info);
    await payWithCard(page, info);
    await page.getByRole('button', { name: 'Contratar seguro' }).click();
    await expect(page.getByTestId('poliza')).toHaveText(/^HOG-/, { timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar fixture' }).click()]);
    const file = info.outputPath('grabado-3541.json');
    await download.saveAs(file);
    expect(readFileSync(file, 'utf8')).not.toContain('987654');
    const journey = loadJourney(file);
    const contacto = journey.steps.find((s) => s.route.endsWith('/contacto') && s.answers)?.answers;
    // the phone placeholder fitted to the 4-digit area code: 6 digits, so 10 together (the API accepts it)
    expect(contacto).toMatchObject({ areaCod: '3541', phoneNumber: '555512' });
    const vigencia = journey.steps.find((s) => s.route.endsWith('/vigencia'))?.answers?.initPolicyDate;
    expect(vigencia).toMatch(/^\$hoy\+\d+$/);
    expect(journey.steps.find((s) => s.expect?.planes)?.expect?.planes).toBeDefined();
    expect(journey.steps.at(-1)?.expect?.policyNumber).toBe(true);

    const later = new Date(Date.now() + ADELANTO_MS);
    // the start date the replays answer: counted from the later day, so it is outside the window counted from today
    // (tomorrow … +30): an API still on today would refuse it
    const startLater = resolveAnswer(vigencia, later) as string;
    expect(startLater > (resolveAnswer('$hoy+30') as string)).toBe(true);

    // 2a. headless, 200 days later: `npm run replay -- --headless` in a process whose clock is moved (the engine's and
    // the in-process API's "today", and the fixture's $hoy+N)
    const today = await run(['-e', "import('./src/core/dates.ts').then((m) => console.log(m.hoyArgentina()))"], otroDia());
    expect(today.out.trim()).toBe(iso(later));
    const t0 = Date.now();
    const headless = await run(['scripts/replay.ts', '--headless', file], otroDia());
    console.log(`headless, ${DIAS} días después: ${Date.now() - t0} ms`);
    expect(headless.out).toContain('1/1 recorridos verdes');
    expect(headless.code, headless.out).toBe(0);

    // 2b. in Chromium, 200 days later: the page's clock and an API started with its clock moved
    const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-otro-dia-'));
    let server: ServerProcess | undefined;
    const context = await browser.newContext({ viewport: journey.viewport, locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' });
    try {
      server = await startOwnApi(dataDir, otroDia());
      const replayPage = await context.newPage();
      const bodies: string[] = [];
      replayPage.on('request', (r) => {
        if (r.method() === 'POST' && r.url().includes('/api/cotizacion/')) bodies.push(r.postData() ?? '');
      });
      const t1 = Date.now();
      const reports = await replayInBrowser(replayPage, journey, loadReplayProduct('.'), {
        baseUrl: server.url,
        now: new Date(Date.now() + ADELANTO_MS), // the same instant as the API's clock
      });
      console.log(`Chromium, ${DIAS} días después: ${Date.now() - t1} ms`);
      const failed = reports.find((r) => !r.ok);
      expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error}\n${failed.text}` : '').toBeUndefined();
      expect(reports).toHaveLength(journey.steps.length);
      // it really was the later day: in the page, and in what was quoted
      expect(
        await replayPage.evaluate(() =>
          new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date()),
        ),
      ).toBe(iso(later));
      expect(
        bodies.some((b) => b.includes(`"${startLater}"`)),
        bodies.join('\n'),
      ).toBe(true);
    } finally {
      await context.close();
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
