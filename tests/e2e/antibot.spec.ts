/**
 * The anti-bot proof of work in a real browser (the e2e server runs with ANTIBOT=on): nothing of it
 * loads on step 1; from the first house question a challenge is solved in a Web Worker; cotizar carries the
 * solution and spends it (the same body again is refused); a refused quote shows the Spanish message, keeps the
 * answers, and the retry solves a new challenge.
 */
import { expect, test, type Page, type Request } from '@playwright/test';
import { answerHouseQuestions, quoteAHome, UNA_PANTALLA } from './journey';

const MENSAJE = 'No pudimos confirmar la verificación de seguridad de tu navegador. Tus respuestas están guardadas: volvé a intentar.';

/** Every cotizar request body and every challenge request (with the page's URL when it left), as they happen. */
function watch(page: Page) {
  const cotizar: Record<string, unknown>[] = [];
  const desafios: string[] = [];
  const workers: string[] = [];
  page.on('request', (r: Request) => {
    if (r.url().endsWith('/api/cotizacion/cotizar')) cotizar.push(r.postDataJSON());
    if (r.url().endsWith('/api/antibot/desafio')) desafios.push(new URL(page.url()).pathname);
  });
  page.on('worker', (w) => workers.push(new URL(w.url()).pathname));
  return { cotizar, desafios, workers };
}

const firma = (body: Record<string, unknown>) => (body.antibot as { challenge: { signature: string } } | undefined)?.challenge.signature;

test(
  'nada de la prueba de trabajo en el paso 1; se resuelve en segundo plano y cotizar la gasta una sola vez',
  UNA_PANTALLA,
  async ({ page }, info) => {
    const seen = watch(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Asegurá tu hogar en minutos');
    await page.waitForLoadState('networkidle');
    // step 1 idle: no challenge asked, no solver started, none of its code fetched
    expect(seen.desafios).toEqual([]);
    expect(seen.workers).toEqual([]);
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(loaded.filter((u) => /pow\.worker|\/proof-of-work-|\/v2-|antibot/.test(u))).toEqual([]);

    await quoteAHome(page, info);
    // the one challenge was asked on the first house question, and solved in a worker; none after the quote
    expect(seen.desafios).toEqual(['/seguro-hogar/propiedad']);
    expect(seen.workers).toEqual([expect.stringMatching(/^\/assets\/pow\.worker-[\w-]+\.js$/)]);
    expect(seen.cotizar).toHaveLength(1);
    const body = seen.cotizar[0];
    expect(body.antibot).toMatchObject({
      challenge: { signature: expect.stringMatching(/^[0-9a-f]{64}$/) },
      solution: { counter: expect.any(Number) },
    });

    // the same solution sent again (a script replaying it) is refused in the API's error shape
    const { csrfToken } = await (await page.request.get('/api/set-csrf')).json();
    const replay = await page.request.post('/api/cotizacion/cotizar', { data: body, headers: { 'x-xsrf-token': csrfToken } });
    expect(replay.status()).toBe(400);
    expect(await replay.json()).toMatchObject({ status: 400, code: 'VALIDACION', message: MENSAJE });
  },
);

test(
  'una cotización sin prueba válida muestra el aviso, conserva las respuestas y el reintento resuelve otro desafío',
  UNA_PANTALLA,
  async ({ page }, info) => {
    const seen = watch(page);
    let first = true;
    // the first quote leaves without its solution (as a script would); the retry goes as the browser sends it
    await page.route('**/api/cotizacion/cotizar', async (route) => {
      if (!first) return route.continue();
      first = false;
      const { antibot: _, ...rest } = route.request().postDataJSON() as Record<string, unknown>;
      return route.continue({ postData: JSON.stringify(rest) });
    });
    await answerHouseQuestions(page, info);
    await page.getByRole('button', { name: 'Ver mi cotización' }).click();
    await expect(page.getByText(MENSAJE)).toBeVisible();
    await expect(page).toHaveURL(/\/seguro-hogar\/vigencia$/);
    await expect(page.getByLabel('Inicio de la cobertura')).not.toHaveValue('');

    await page.getByRole('button', { name: 'Ver mi cotización' }).click();
    await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion/);
    await expect(page.locator('.plan')).toHaveCount(3);
    expect(seen.cotizar).toHaveLength(2);
    // the retry carried the solution of a new challenge: a solution once sent is never sent again
    expect(firma(seen.cotizar[1])).toMatch(/^[0-9a-f]{64}$/);
    expect(firma(seen.cotizar[1])).not.toBe(firma(seen.cotizar[0]));
    // solved in advance on the first house question; the retry's, when it ran; none on the steps after the quote
    expect(seen.desafios).toEqual(['/seguro-hogar/propiedad', '/seguro-hogar/vigencia']);
  },
);
