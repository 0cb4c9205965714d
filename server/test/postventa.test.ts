/**
 * After the sale, through the API on in-memory PGlite with a real local SMTP server: the policy e-mail with its PDF after
 * emission, the PDF download (same bytes, signed/expiring token), the quote e-mail and its resume link on another
 * session, withdrawal and cancellation (tracking code, e-mail, state, no enumeration, rate limit), the outbox retry
 * with bounded backoff, the Ley 25.326 consent record, bad input (4xx in Spanish) and the dev mail page.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../src/config.ts';
import { createTokens } from '../src/domain/postventa/tokens.ts';
import { texto } from '../src/domain/postventa/textos.ts';
import { buildTestApp, CBU_OK, cotizarBody, expectError, expectSchema, get, getCsrf, hoy, post, recorrerJourney } from './helper.ts';
import { iniciarSmtp, type SmtpDePrueba } from './smtp.ts';

const TARJETA = '4242424242424242';
const OUT = join(import.meta.dirname, '../../test-results/pdf');

/** Text of a PDF (poppler's pdftotext) and, for a person to look at, its first page as PNG under test-results/pdf. */
function textoPdf(pdf: Buffer, nombre: string): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${nombre}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '80', file, join(OUT, nombre)]);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

let smtp: SmtpDePrueba;
let app: FastifyInstance;
beforeAll(async () => {
  smtp = await iniciarSmtp();
  app = await buildTestApp({
    smtpUrl: smtp.url,
    publicUrl: 'http://cotizador.test',
    correo: { pollMs: 20, retryBaseMs: 20 },
    tramitesPorHora: 1000,
  });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe('policy: e-mail with the PDF and the download link', () => {
  it('after emission the SMTP server gets the policy e-mail in Spanish with the PDF, and no card number anywhere', async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA });
    expect(estado.estado).toBe('EMITIDA');
    const num = estado.numSecuPol as string;
    const mail = await smtp.esperar((m) => m.subject === `Tu póliza de hogar ${num}`);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ana@example.com');
    expect(mail.text).toContain('Hola, Ana:');
    expect(mail.text).toMatch(/Rige desde el \d{2}\/\d{2}\/\d{4} hasta el \d{2}\/\d{2}\/\d{4}/);
    expect(mail.attachments).toHaveLength(2); // the policy and its conditions
    expect(mail.attachments[0]).toMatchObject({ filename: `poliza-${num}.pdf`, contentType: 'application/pdf' });
    const pdf = mail.attachments[0].content;
    const txt = textoPdf(pdf, 'poliza');
    expect(txt).toContain(num);
    expect(txt).toContain('Av. Hipólito Yrigoyen 4500, Piso 2 Depto. B');
    expect(txt).toContain('Lanús');
    expect(txt).toMatch(/Premio total\s+\$\s[\d.]+,\d{2}/);
    expect(txt).toMatch(/IVA \(21 %\)\s+\$\s[\d.]+,\d{2}/);
    expect(txt).toContain('Visa terminada en 4242');
    expect(txt).toContain('Servicio de Atención al Asegurado');
    expect(txt).toContain('0800-666-8400');
    for (const s of [txt, mail.text ?? '', String(mail.html)]) expect(s).not.toContain(TARJETA);

    // the thank-you link: the same stored bytes as the e-mail, every time, without a session
    const token = estado.documento as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const a = await app.inject({ method: 'GET', url: `/api/documentos/poliza/${token}` });
    const b = await app.inject({ method: 'GET', url: `/api/documentos/poliza/${token}` });
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('application/pdf');
    expect(a.rawPayload.equals(pdf)).toBe(true);
    expect(b.rawPayload.equals(pdf)).toBe(true);
  });

  it('premio breakdown adds up: prima + IVA + tasa SSN + sellos = premio', async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'CBU', numberCBU: CBU_OK });
    const res = await app.inject({ method: 'GET', url: `/api/documentos/poliza/${estado.documento as string}` });
    const txt = textoPdf(res.rawPayload, 'poliza-cbu');
    const monto = (label: RegExp) =>
      Number(
        (txt.match(new RegExp(`${label.source}\\s+\\$\\s([\\d.]+,\\d{2})`)) as RegExpMatchArray)[1].replace(/\./g, '').replace(',', '.'),
      );
    const suma = monto(/Prima/) + monto(/IVA \(21 %\)/) + monto(/Tasa SSN \(6 ‰\)/) + monto(/Impuesto de sellos \(Buenos Aires\)/);
    expect(Math.round(suma * 100)).toBe(Math.round(monto(/Premio total/) * 100));
    expect(txt).toMatch(/CBU .* terminada en \d{4}/);
    expect(txt).not.toContain(CBU_OK);
  });

  it('a tampered, foreign-key or expired token is refused with a Spanish 404; a malformed one with 400', async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA });
    const token = estado.documento as string;
    const [payload, sig] = token.split('.');
    const otro = Buffer.from(JSON.parse(Buffer.from(payload, 'base64url').toString()).id.replace(/\d$/, '9')).toString();
    const cambiado = Buffer.from(JSON.stringify({ k: 'poliza', id: otro, exp: 4102444800 })).toString('base64url');
    for (const t of [
      `${cambiado}.${sig}`,
      `${payload}.${sig.slice(0, -2)}AA`,
      createTokens(Buffer.alloc(32, 7)).firmar('poliza', otro, 60_000),
    ]) {
      expectError(
        await app.inject({ method: 'GET', url: `/api/documentos/poliza/${t}` }),
        404,
        'NO_ENCONTRADO',
        texto('servidor.postventa.enlaceInvalido'),
      );
    }
    const vencido = app.deps.tokens.firmar('poliza', estado.numSecuPol as string, -1000);
    expectError(
      await app.inject({ method: 'GET', url: `/api/documentos/poliza/${vencido}` }),
      404,
      'NO_ENCONTRADO',
      texto('servidor.postventa.enlaceVencido'),
    );
    const mal = await app.inject({ method: 'GET', url: '/api/documentos/poliza/no-es-un-token' });
    expect(mal.statusCode).toBe(400);
    expect(mal.json().errors[0].message).toBe('El enlace no es válido. Pedí uno nuevo o volvé a cotizar.');
    // a quote token does not open a policy
    const deCotizacion = app.deps.tokens.firmar('cotizacion', estado.numSecuPol as string, 60_000);
    expect((await app.inject({ method: 'GET', url: `/api/documentos/poliza/${deCotizacion}` })).statusCode).toBe(404);
  });
});

describe('quote: PDF, e-mail and resume link', () => {
  it('e-mails the quote with its PDF and a link that resumes it on another session, re-priced', async () => {
    const csrf = await getCsrf(app);
    const cot = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ email: 'beto@example.com' }), csrf)).json();
    const pdf = await get(app, `/api/documentos/cotizacion/${cot.refId}`, csrf);
    expect(pdf.statusCode).toBe(200);
    const txt = textoPdf(pdf.rawPayload, 'cotizacion');
    expect(txt).toContain('Cotización de seguro de hogar');
    expect(txt).toMatch(/válida hasta el \d{2}\/\d{2}\/\d{4}/);
    for (const p of cot.planes) expect(txt).toContain(p.nombre);
    expect((await get(app, `/api/documentos/cotizacion/${cot.refId}`, await getCsrf(app))).statusCode).toBe(404); // another session

    const respuestas = { propiedad: { tipoVivienda: 'CASA' }, metros: { metros: 80 }, contacto: { email: 'beto@example.com' } };
    const env = await post(app, '/api/cotizacion/enviar', { refId: cot.refId, respuestas, versionFlujo: 2 }, csrf);
    expect(env.statusCode).toBe(200);
    expect(env.json()).toEqual({ ok: true, email: 'beto@example.com' });
    const mail = await smtp.esperar(
      (m) =>
        m.subject === 'Tu cotización de seguro de hogar' &&
        (m.text ?? '').includes('beto') === false &&
        m.to !== undefined &&
        'text' in m.to &&
        m.to.text === 'beto@example.com',
    );
    expect(mail.attachments[0]).toMatchObject({ filename: 'cotizacion-hogar.pdf', contentType: 'application/pdf' });
    expect(mail.text).toMatch(/Intermedio: \$\s[\d.]+,\d{2} por mes/);
    const link = (mail.text ?? '').match(/http:\/\/cotizador\.test\/seguro-hogar\/cotizacion\?retomar=([A-Za-z0-9_.-]+)/);
    expect(link).not.toBeNull();
    expect(link?.[0]).not.toContain('beto'); // no personal data in the URL

    const otro = await getCsrf(app);
    const ret = await post(app, '/api/cotizacion/retomar', { token: link?.[1] }, otro);
    expect(ret.statusCode).toBe(200);
    expectSchema(ret.json(), 'postventa', 'RetomarResponse');
    const r = ret.json();
    expect(r).toMatchObject({ respuestas, versionFlujo: 2, tarifaCambiada: false, fechaMovida: false });
    expect(r.cotizacion.refId).not.toBe(cot.refId);
    expect(r.cotizacion.planes.map((p: { premio: number }) => p.premio)).toEqual(cot.planes.map((p: { premio: number }) => p.premio));
    // the new quote belongs to the session that opened the link
    expect(
      (
        await post(
          app,
          '/api/cotizacion/datos-presupuesto',
          { refId: r.cotizacion.refId, codPlan: 'BASICO', coberturasOpcionales: [] },
          otro,
        )
      ).statusCode,
    ).toBe(200);

    // a tariff change since the e-mail is reported
    await app.deps.db.query("UPDATE cotizaciones SET planes = jsonb_set(planes::jsonb, '{0,premio}', '1')::json WHERE ref_id = $1", [
      cot.refId,
    ]);
    expect((await post(app, '/api/cotizacion/retomar', { token: link?.[1] }, otro)).json().tarifaCambiada).toBe(true);
    // tampered and expired links: Spanish 404
    expectError(
      await post(app, '/api/cotizacion/retomar', { token: `${link?.[1].slice(0, -3)}abc` }, otro),
      404,
      'NO_ENCONTRADO',
      texto('servidor.postventa.enlaceInvalido'),
    );
    await app.deps.db.query("UPDATE cotizaciones_enviadas SET vence_en = now() - interval '1 minute'");
    expectError(
      await post(app, '/api/cotizacion/retomar', { token: link?.[1] }, otro),
      404,
      'NO_ENCONTRADO',
      texto('servidor.postventa.enlaceVencido'),
    );
  });

  it('bad input: 4xx with the Spanish message, never 5xx', async () => {
    const csrf = await getCsrf(app);
    const b1 = await post(app, '/api/cotizacion/enviar', { refId: 'x', respuestas: {}, versionFlujo: 2 }, csrf);
    expect(b1.statusCode).toBe(400);
    expect(b1.json().errors).toEqual([{ field: '/refId', message: 'La cotización no es válida. Volvé a cotizar.' }]);
    const b2 = await post(
      app,
      '/api/cotizacion/enviar',
      { refId: '00000000-0000-4000-8000-000000000000', respuestas: {}, versionFlujo: 2 },
      csrf,
    );
    expectError(b2, 404, 'NO_ENCONTRADO', 'No encontramos tu cotización. Volvé a cotizar.');
    const b3 = await post(
      app,
      '/api/cotizacion/enviar',
      { refId: '00000000-0000-4000-8000-000000000000', respuestas: 'hola', versionFlujo: 0, extra: 1 },
      csrf,
    );
    expect(b3.statusCode).toBe(400);
    const b4 = await post(app, '/api/cotizacion/retomar', { token: '' }, csrf);
    expect(b4.statusCode).toBe(400);
    expect(b4.json().errors[0].message).toBe('El enlace no es válido. Pedí uno nuevo o volvé a cotizar.');
    const b5 = await post(app, '/api/postventa/arrepentimiento', { numSecuPol: 'ABC', dni: '12.345.678', email: 'no' }, csrf);
    expect(b5.statusCode).toBe(400);
    expect(b5.json().errors).toEqual(
      expect.arrayContaining([
        { field: '/numSecuPol', message: 'Ingresá el número de póliza tal como figura en la póliza (HOG-AAAA-NNNNNN).' },
        { field: '/dni', message: 'Ingresá el DNI sin puntos (7 u 8 números).' },
        { field: '/email', message: 'Ingresá un e-mail válido.' },
      ]),
    );
    expect((await get(app, '/api/documentos/cotizacion/nada', csrf)).statusCode).toBe(400);
  });
});

describe('botón de arrepentimiento y botón de baja', () => {
  it('withdrawal: same answer for unknown and mismatched data; with the right data a tracking code, an e-mail and ANULADA', async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA });
    const num = estado.numSecuPol as string;
    const csrf = await getCsrf(app);
    const desconocida = await post(
      app,
      '/api/postventa/arrepentimiento',
      { numSecuPol: 'HOG-2026-999999', dni: '30123456', email: 'ana@example.com' },
      csrf,
    );
    const otroDni = await post(app, '/api/postventa/arrepentimiento', { numSecuPol: num, dni: '30123457', email: 'ana@example.com' }, csrf);
    const otroMail = await post(
      app,
      '/api/postventa/arrepentimiento',
      { numSecuPol: num, dni: '30123456', email: 'otra@example.com' },
      csrf,
    );
    for (const r of [desconocida, otroDni, otroMail])
      expectError(r, 404, 'NO_ENCONTRADO', 'No encontramos una póliza con esos datos. Revisá el número de póliza, el DNI y el e-mail.');
    expect(desconocida.body).toBe(otroDni.body);
    expect(desconocida.body).toBe(otroMail.body);

    const ok = await post(
      app,
      '/api/postventa/arrepentimiento',
      { numSecuPol: num.toLowerCase(), dni: '30123456', email: 'ANA@example.com' },
      csrf,
    );
    expect(ok.statusCode).toBe(200);
    expectSchema(ok.json(), 'postventa', 'TramiteResponse');
    const { codigo } = ok.json();
    expect(ok.json()).toMatchObject({ tipo: 'ARREPENTIMIENTO', numSecuPol: num, estado: 'ANULADA' });
    const rows = await app.deps.db.query<{ estado: string }>('SELECT estado FROM polizas WHERE num_secu_pol = $1', [num]);
    expect(rows[0].estado).toBe('ANULADA');
    const mail = await smtp.esperar((m) => m.subject === `Recibimos tu arrepentimiento — código ${codigo}`);
    expect(mail.text).toContain(`Recibimos tu pedido de arrepentimiento de la póliza ${num}`);
    // asking again gives the same code; a cancellation of a voided policy is refused
    expect(
      (await post(app, '/api/postventa/arrepentimiento', { numSecuPol: num, dni: '30123456', email: 'ana@example.com' }, csrf)).json()
        .codigo,
    ).toBe(codigo);
    expectError(
      await post(app, '/api/postventa/baja', { numSecuPol: num, dni: '30123456', email: 'ana@example.com' }, csrf),
      409,
      'CONFLICTO',
      texto('servidor.postventa.yaAnulada'),
    );
  });

  it('withdrawal after 10 calendar days is refused (the baja is still possible); baja sets BAJA from 24 h of the day asked', async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA });
    const num = estado.numSecuPol as string;
    await app.deps.db.query("UPDATE polizas SET emitida_en = now() - interval '11 days' WHERE num_secu_pol = $1", [num]);
    const datos = { numSecuPol: num, dni: '30123456', email: 'ana@example.com' };
    expectError(await post(app, '/api/postventa/arrepentimiento', datos), 409, 'CONFLICTO', texto('servidor.postventa.plazoVencido'));
    const baja = await post(app, '/api/postventa/baja', datos);
    expect(baja.statusCode).toBe(200);
    expect(baja.json()).toMatchObject({ tipo: 'BAJA', estado: 'BAJA', fechaEfectiva: hoy() });
    const [p] = await app.deps.db.query<{ estado: string; desde: string }>(
      "SELECT estado, to_char(estado_desde, 'YYYY-MM-DD') AS desde FROM polizas WHERE num_secu_pol = $1",
      [num],
    );
    expect(p).toEqual({ estado: 'BAJA', desde: hoy() });
    await smtp.esperar((m) => m.subject === `Recibimos tu pedido de baja — código ${baja.json().codigo}`);
  });

  it('is rate-limited per IP (429 in Spanish)', async () => {
    const limitada = await buildTestApp({ tramitesPorHora: 2 });
    try {
      const datos = { numSecuPol: 'HOG-2026-000001', dni: '30123456', email: 'ana@example.com' };
      expect((await post(limitada, '/api/postventa/baja', datos)).statusCode).toBe(404);
      expect((await post(limitada, '/api/postventa/arrepentimiento', datos)).statusCode).toBe(404);
      expectError(await post(limitada, '/api/postventa/baja', datos), 429, 'DEMASIADAS_SOLICITUDES', texto('servidor.postventa.limite'));
    } finally {
      await limitada.close();
    }
  }); // builds its own app: ~10 s alone on a loaded machine
});

describe('outbox', () => {
  it('a failed send never breaks the purchase and is retried with backoff until the SMTP server takes it', async () => {
    // only this purchase's mail is refused: an earlier test's mail may still be in the shared app's outbox
    const email = 'reintentos@example.com';
    smtp.rechazar(2, (m) => m.to !== undefined && 'text' in m.to && m.to.text === email);
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA }, { persona: { email } });
    expect(estado.estado).toBe('EMITIDA');
    await smtp.esperar((m) => m.subject === `Tu póliza de hogar ${estado.numSecuPol as string}`);
    // the SMTP server has the message before the sender marks its row sent (after the server's answer): on a loaded
    // machine the row was still PENDIENTE when read at once, so the row is awaited until it says ENVIADO (ceiling 30 s)
    await vi.waitFor(
      async () => {
        const [c] = await app.deps.db.query<{ estado: string; intentos: number }>(
          'SELECT estado, intentos FROM correos WHERE asunto = $1',
          [`Tu póliza de hogar ${estado.numSecuPol as string}`],
        );
        expect(c).toEqual({ estado: 'ENVIADO', intentos: 3 });
      },
      { timeout: 30_000, interval: 50 },
    );
  });

  it('with the SMTP server away: attempts are spaced by a bounded backoff and end FALLIDO once the message is too old', async () => {
    // Waits on what the outbox does, not on how many attempts a machine fits in a time: three attempts are awaited
    // while the message is young (a maximum age of 10 min, never reached here), then the message is made older than
    // that in the database (its queue time moved back), and the next attempt ends it FALLIDO. A 4 s age with "at least
    // three attempts" failed beside two busy loops: each attempt (MIME and PDFs) took over a second of that machine.
    const VIDA_MAX_MS = 600_000;
    const caido = await buildTestApp({
      smtpUrl: 'smtp://127.0.0.1:9',
      correo: { pollMs: 10, retryBaseMs: 40, maxBackoffMs: 80, vidaMaxMs: VIDA_MAX_MS },
    });
    type Fila = { estado: string; intentos: number; ultimoError: string; edad: number };
    const fila = async () =>
      (
        await caido.deps.db.query<Fila>(`SELECT estado, intentos, ultimo_error AS "ultimoError",
          (extract(epoch FROM now() - encolado_en) * 1000)::int AS edad FROM correos`)
      )[0];
    /** The row once `done` holds for it (polled every 20 ms; the test's ceiling is the limit). */
    const cuando = async (done: (f: Fila | undefined) => boolean) => {
      for (let f = await fila(); ; f = await fila()) {
        if (done(f)) return f!;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      const { estado } = await recorrerJourney(caido, { methodPayment: 'TC', numberPaymentCard: TARJETA });
      expect(estado.estado).toBe('EMITIDA');
      const joven = await cuando((f) => (f?.intentos ?? 0) >= 3);
      // retried while young and still waiting its turn (0, 40, 120, 200 ms…), never sooner than 40 ms apart
      expect(joven.estado).toBe('PENDIENTE');
      expect(joven.ultimoError).toMatch(/ECONNREFUSED/);
      expect(joven.intentos).toBeLessThanOrEqual(Math.ceil(joven.edad / 40) + 1);
      // older than its maximum age: the next failed attempt gives up
      await caido.deps.db.query('UPDATE correos SET encolado_en = encolado_en - make_interval(secs => $1::float8 / 1000)', [VIDA_MAX_MS]);
      const vieja = await cuando((f) => f?.estado === 'FALLIDO');
      expect(vieja.ultimoError).toMatch(/ECONNREFUSED/);
      expect(vieja.edad).toBeGreaterThanOrEqual(VIDA_MAX_MS);
      expect(vieja.intentos).toBeGreaterThanOrEqual(joven.intentos); // an attempt counts when it starts: that one may end it
    } finally {
      await caido.close();
    }
  }); // builds its own app and waits for three attempts: the project's ceiling (180 s) for a loaded machine

  it('without SMTP_URL the message stays in the outbox (LOCAL) and the dev page shows it; no dev page in production', async () => {
    const local = await buildTestApp({ correo: { pollMs: 10 }, devPages: true });
    try {
      const { estado } = await recorrerJourney(local, { methodPayment: 'TC', numberPaymentCard: TARJETA });
      // until the outbox has taken the message up (polled every 20 ms; the project's ceiling, not a clock, is the limit)
      let c: { estado: string } | undefined;
      for (;;) {
        [c] = await local.deps.db.query<{ estado: string }>('SELECT estado FROM correos');
        if (c && c.estado !== 'PENDIENTE') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(c.estado).toBe('LOCAL');
      const page = await local.inject({ method: 'GET', url: '/api/dev/correo' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`Tu póliza de hogar ${estado.numSecuPol as string}`);
      expect(page.body).not.toContain(TARJETA);
      // nothing was rendered to keep it: the policy PDF is rendered when its link is opened
      const [{ id }] = await local.deps.db.query<{ id: string }>('SELECT id FROM correos');
      const pdf = await local.inject({ method: 'GET', url: `/api/dev/correo/${id}/adjunto/0` });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const texto = execFileSync('pdftotext', ['-', '-'], { input: pdf.rawPayload, encoding: 'utf8' });
      expect(texto).toContain(estado.numSecuPol as string);
    } finally {
      await local.close();
    }
    expect(readConfig({ NODE_ENV: 'production' }).desarrollo).toBe(false);
    expect(readConfig({ NODE_ENV: 'development' }).desarrollo).toBe(true);
    expect(() => readConfig({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
    const prod = await buildTestApp();
    try {
      expect((await prod.inject({ method: 'GET', url: '/api/dev/correo' })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  }); // builds its own app: ~10 s alone on a loaded machine
});

describe('Ley 25.326 consent', () => {
  it('is required and stored with its time and the text version', async () => {
    const csrf = await getCsrf(app);
    const { refId } = (await post(app, '/api/cotizacion/cotizar', cotizarBody(), csrf)).json();
    const { persona } = await import('./helper.ts');
    const sin = await post(app, '/api/salesforce/insertar-datos', { refId, ...persona({ consentimientoDatos: false }) }, csrf);
    expect(sin.statusCode).toBe(400);
    expect(sin.json().errors).toEqual([
      { field: '/consentimientoDatos', message: 'Para continuar tenés que aceptar el tratamiento de tus datos personales.' },
    ]);
    expect((await post(app, '/api/salesforce/insertar-datos', { refId, ...persona() }, csrf)).statusCode).toBe(200);
    const [row] = await app.deps.db.query<{ en: Date | null; version: string }>(
      'SELECT consentimiento_en AS en, consentimiento_version AS version FROM personas WHERE ref_id = $1',
      [refId],
    );
    expect(row.en).not.toBeNull();
    expect(row.version).toBe(texto('legal.datosPersonales.version'));
  });
});
