/**
 * The testers' recorder: a journey recorded in Chromium with ?grabar=1 downloads as a fixture that holds no payment
 * number or personal data, is valid against flow/journey.schema.json, and replays green unchanged.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { stepById } from '../../src/engine/core/guards.ts';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import { loadJourney } from '../../tools/replay/fixture.ts';
import { choosePlanAndPersonalData, payWithCard, quoteAHome, UNA_PANTALLA } from './journey';

test(
  'un recorrido grabado con ?grabar=1 se descarga como fixture sin datos personales y se reproduce en verde',
  UNA_PANTALLA,
  async ({ page, browser, baseURL }, info) => {
    test.setTimeout(180_000);
    await quoteAHome(page, info, '?grabar=1&utm_campaign=grabado');
    await expect(page.getByRole('region', { name: 'Grabando recorrido' })).toBeVisible();
    await choosePlanAndPersonalData(page, info);
    await payWithCard(page, info, '4111 1111 1111 1111');
    await page.getByRole('button', { name: 'Contratar seguro' }).click();
    await expect(page.getByTestId('poliza')).toHaveText(/^HOG-/, { timeout: 30_000 });
    await page.screenshot({ path: `tests/e2e/screenshots/${info.project.name}/16-grabador.png`, fullPage: false });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar fixture' }).click()]);
    const file = info.outputPath('grabado.json');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('4111');
    const journey = loadJourney(file);
    // every answer the flow says to replace (recorder.replace) holds the placeholder, not what the visitor typed
    const { flow } = loadReplayProduct('.');
    let replaced = 0;
    for (const [pointer, placeholder] of Object.entries(flow.recorder?.replace ?? {})) {
      const [, , stepId, field] = pointer.split('/');
      const route = stepById(flow, stepId).path;
      for (const fs of journey.steps.filter((x) => x.route === route && x.answers && field in x.answers)) {
        // the phone placeholder is fitted to the recorded area code (10 national digits)
        const areaCod = field === 'phoneNumber' ? String(fs.answers!.areaCod) : '';
        expect(fs.answers![field], pointer).toBe(
          field === 'phoneNumber'
            ? String(placeholder)
                .repeat(2)
                .slice(0, 10 - areaCod.length)
            : placeholder,
        );
        replaced++;
      }
    }
    expect(replaced).toBeGreaterThanOrEqual(8);
    // the landing as the visitor opened it (the server may already answer `/` with the entry step's prerendered page)
    expect(journey.url).toMatch(/^\/(seguro-hogar)?\?utm_campaign=grabado$/);
    expect(journey.steps.map((s) => s.route.split('/').pop())).toContain('metodo-de-pago');
    expect(journey.steps.find((s) => s.route.endsWith('metodo-de-pago'))?.answers).toMatchObject({
      numberPaymentCard: '4242 4242 4242 4242',
    });

    // replays as is on another day: dates relative to the day; the result recorded as expectations
    expect(journey.steps.find((s) => s.route.endsWith('vigencia'))?.answers?.initPolicyDate).toMatch(/^\$hoy(\+\d+)?$/);
    expect(Object.keys(journey.steps.find((s) => s.expect?.planes)?.expect?.planes ?? {})).toEqual(['BASICO', 'INTERMEDIO', 'INTEGRAL']);
    expect(journey.steps.find((s) => s.expect?.plan)?.expect?.plan).toMatchObject({
      codPlan: expect.any(String),
      premio: expect.any(Number),
    });
    expect(journey.steps.at(-1)?.expect?.policyNumber).toBe(true);
    for (const s of journey.steps) expect(s.calls?.map((c) => c.path) ?? [], s.route).not.toContain('/embudo/eventos');

    const context = await browser.newContext({ viewport: journey.viewport, locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' });
    const reports = await replayInBrowser(await context.newPage(), journey, loadReplayProduct('.'), { baseUrl: baseURL as string });
    await context.close();
    const failed = reports.find((r) => !r.ok);
    expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error}` : '').toBeUndefined();
    expect(reports).toHaveLength(journey.steps.length);
  },
);

test(
  'un pago rechazado grabado queda rechazado: la tarjeta de prueba que la entidad rechaza se guarda como se tipeó',
  UNA_PANTALLA,
  async ({ page, browser, baseURL }, info) => {
    test.setTimeout(180_000);
    await quoteAHome(page, info, '?grabar=1', { areaCod: '11', numero: '47891234' });
    await choosePlanAndPersonalData(page, info);
    await payWithCard(page, info, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Contratar seguro' }).click();
    await expect(page).toHaveURL(/\/seguro-hogar\/error\?grabar=1$/, { timeout: 30_000 });
    await expect(page.getByText('La entidad rechazó el medio de pago. Probá con otro.')).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar fixture' }).click()]);
    const file = info.outputPath('grabado-rechazo.json');
    await download.saveAs(file);
    const journey = loadJourney(file);
    // a schema's own example (schemas/metodo-de-pago.schema.json) is test data: kept, not replaced by the accepted card
    expect(journey.steps.find((s) => s.route.endsWith('metodo-de-pago'))?.answers).toMatchObject({
      numberPaymentCard: '4000 0000 0000 0002',
    });
    expect(journey.steps.at(-1)?.route).toBe('seguro-hogar/error');
    // what the visitor typed that is not a schema example is still replaced
    expect(readFileSync(file, 'utf8')).not.toContain('47891234');
    expect(journey.steps.find((s) => s.route.endsWith('contacto'))?.answers).toMatchObject({ areaCod: '11', phoneNumber: '55551234' });

    const context = await browser.newContext({ viewport: journey.viewport, locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' });
    const reports = await replayInBrowser(await context.newPage(), journey, loadReplayProduct('.'), { baseUrl: baseURL as string });
    await context.close();
    const failed = reports.find((r) => !r.ok);
    expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error}` : '').toBeUndefined();
    expect(reports.map((r) => r.route).at(-1)).toBe('seguro-hogar/error');
  },
);
