/**
 * Resume links and after-sale requests through the API on in-memory PGlite: a resume link re-quotes under the hourly quote
 * limit of the client address and at most RETOMAR_POR_ENLACE_POR_HORA times an hour; the withdrawal/cancellation
 * buttons are limited per policy as well as per address, audited (time, address, user agent), confirmed to the
 * policy's e-mail of record with the tracking code, the lookup link and how to object; a baja keeps a withdrawal still
 * inside its 10 days; the baja's one effective-date sentence; the tracking-code lookup without enumeration.
 * E-mails are read from the outbox (`correos`), where the request's own transaction queued them.
 */
import { execFileSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fecha } from '../src/domain/documentos/formato.ts';
import { texto } from '../src/domain/postventa/textos.ts';
import { hoyArgentina, sumarDias } from '../src/domain/validation/fechas.ts';
import { buildTestApp, cotizarBody, expectError, expectSchema, getCsrf, post, recorrerJourney, type Csrf } from './helper.ts';

const TARJETA = '4242424242424242';
const DATOS = { dni: '30123456', email: 'ana@example.com' };

/** POST as visitor `csrf` from client address `ip` (the API trusts no proxy here: request.ip is the socket's). */
const postDesde = (app: FastifyInstance, url: string, body: unknown, csrf: Csrf, ip: string, userAgent = 'prueba/1.0') =>
  app.inject({
    method: 'POST',
    url,
    payload: body as object,
    remoteAddress: ip,
    headers: { 'x-xsrf-token': csrf.token, cookie: csrf.cookie, 'user-agent': userAgent },
  });

/** A quote of a new visitor, e-mailed: @returns the visitor and the resume token of its link */
async function cotizacionEnviada(app: FastifyInstance, ip = '127.0.0.1'): Promise<{ csrf: Csrf; token: string }> {
  const csrf = await getCsrf(app);
  const cot = await postDesde(app, '/api/cotizacion/cotizar', cotizarBody(), csrf, ip);
  expect(cot.statusCode).toBe(200);
  const env = await postDesde(
    app,
    '/api/cotizacion/enviar',
    { refId: cot.json().refId, respuestas: { metros: { metros: 80 } }, versionFlujo: 2 },
    csrf,
    ip,
  );
  expect(env.statusCode).toBe(200);
  const [row] = await app.deps.db.query<{ id: string }>('SELECT id FROM cotizaciones_enviadas WHERE ref_id = $1', [cot.json().refId]);
  return { csrf, token: app.deps.tokens.firmar('cotizacion', row.id, 3_600_000) };
}

/** The queued e-mail with subject `asunto`. */
async function correo(app: FastifyInstance, asunto: string) {
  const rows = await app.deps.db.query<{ para: string; texto: string; html: string }>(
    'SELECT para, texto, html FROM correos WHERE asunto = $1',
    [asunto],
  );
  expect(rows).toHaveLength(1);
  return rows[0];
}

/** Per-test and hook timeout for a loaded machine (a build of the app alone may take 10 s there). */
const LENTO = 120_000;

describe('limits: resume link under the quote limit, and the lookup per address', { timeout: LENTO }, () => {
  // 3 quotes and 2 after-sale requests per address an hour: each test uses its own addresses
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ settings: { cotizacionesPorHoraPorIp: 3 }, tramitesPorHora: 2 });
  }, LENTO);
  afterAll(async () => {
    await app.close();
  });

  it('20 resumes of one link, each from another address: the first 5 re-quote, the other 15 get the Spanish 429', async () => {
    const { token } = await cotizacionEnviada(app, '198.51.100.200');
    const otro = await getCsrf(app);
    const estados: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await postDesde(app, '/api/cotizacion/retomar', { token }, otro, `203.0.113.${i + 1}`);
      estados.push(r.statusCode);
      if (r.statusCode === 429)
        expectError(
          r,
          429,
          'DEMASIADAS_SOLICITUDES',
          'Abriste este enlace muchas veces en la última hora. Probá de nuevo más tarde o volvé a cotizar: son solo unos minutos.',
        );
    }
    expect(estados).toEqual([...Array(5).fill(200), ...Array(15).fill(429)]);
    // 5 re-quotes, each in the session that opened the link, no more
    expect(
      (await app.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cotizaciones WHERE ip LIKE $1', ['203.0.113.%']))[0].n,
    ).toBe(5);
  });

  it("a resume is a quote: it counts on the address's hourly quote limit, shared with cotizar", async () => {
    const { csrf, token } = await cotizacionEnviada(app, '198.51.100.1'); // quote 1 of 3
    const estados: number[] = [];
    let ultimo;
    for (let i = 0; i < 4; i++) {
      ultimo = await postDesde(app, '/api/cotizacion/retomar', { token }, csrf, '198.51.100.1');
      estados.push(ultimo.statusCode);
    }
    expect(estados).toEqual([200, 200, 429, 429]); // quotes 2 and 3
    expectError(
      ultimo!,
      429,
      'DEMASIADAS_SOLICITUDES',
      'Hiciste muchas cotizaciones en la última hora. Probá de nuevo más tarde o escribinos por WhatsApp.',
    );
    expect((await postDesde(app, '/api/cotizacion/cotizar', cotizarBody(), csrf, '198.51.100.1')).statusCode).toBe(429);
    // another address still may: the link's own bound (5) is at 4
    expect((await postDesde(app, '/api/cotizacion/retomar', { token }, csrf, '198.51.100.2')).statusCode).toBe(200);
    expect((await postDesde(app, '/api/cotizacion/retomar', { token }, csrf, '198.51.100.3')).statusCode).toBe(429);
  });

  it('the lookup shares the trámites counter of the address (TRAMITES_POR_HORA)', async () => {
    const csrf = await getCsrf(app);
    const ip = '198.51.100.99';
    expect((await postDesde(app, '/api/postventa/baja', { numSecuPol: 'HOG-2026-000001', ...DATOS }, csrf, ip)).statusCode).toBe(404);
    expect(
      (await postDesde(app, '/api/postventa/consulta', { codigo: 'BAJ-22222222AA', dniOEmail: '30123456' }, csrf, ip)).statusCode,
    ).toBe(404);
    expectError(
      await postDesde(app, '/api/postventa/consulta', { codigo: 'ARR-22222222AA', dniOEmail: '30123456' }, csrf, ip),
      429,
      'DEMASIADAS_SOLICITUDES',
      texto('servidor.postventa.limite'),
    );
  });
});

describe('botón de arrepentimiento y botón de baja', { timeout: LENTO }, () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ publicUrl: 'http://cotizador.test', tramitesPorHora: 1000, settings: { cotizacionesPorHoraPorIp: 1000 } });
  }, LENTO);
  afterAll(async () => {
    await app.close();
  });
  const comprar = async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA });
    expect(estado.estado).toBe('EMITIDA');
    return { num: estado.numSecuPol as string, desde: estado.vigenciaDesde as string };
  };

  it('limited to 5 requests per policy an hour, whoever sends them and whatever they say (also for unknown numbers)', async () => {
    const { num } = await comprar();
    const csrf = await getCsrf(app);
    const estados: number[] = [];
    let ultimo;
    for (let i = 0; i < 6; i++) {
      ultimo = await postDesde(
        app,
        i % 2 ? '/api/postventa/baja' : '/api/postventa/arrepentimiento',
        { numSecuPol: num, dni: `3012345${i}`, email: DATOS.email },
        csrf,
        `192.0.2.${i + 1}`,
      );
      estados.push(ultimo.statusCode);
    }
    expect(estados).toEqual([404, 404, 404, 404, 404, 429]);
    expectError(
      ultimo!,
      429,
      'DEMASIADAS_SOLICITUDES',
      'Recibimos muchos pedidos para esta póliza en la última hora. Probá de nuevo más tarde, o llamanos al 0800-555-4663 o escribinos a atencion@hogarprotegido.example.',
    );
    // the number written in lower case is the same policy
    expect((await post(app, '/api/postventa/baja', { numSecuPol: num.toLowerCase(), ...DATOS }, csrf)).statusCode).toBe(429);
    const desconocida = Array.from({ length: 6 }, () => ({ numSecuPol: 'HOG-2026-999998', ...DATOS }));
    const r = [];
    for (const d of desconocida) r.push((await post(app, '/api/postventa/baja', d, csrf)).statusCode);
    expect(r).toEqual([404, 404, 404, 404, 404, 429]);
  });

  it('every request leaves an audit row: time, client address, user agent, policy, code and answer', async () => {
    const { num } = await comprar();
    const csrf = await getCsrf(app);
    const antes = new Date();
    const mal = await postDesde(
      app,
      '/api/postventa/baja',
      { numSecuPol: num, dni: '99999999', email: DATOS.email },
      csrf,
      '192.0.2.50',
      'Mozilla/5.0 (Android 14)',
    );
    const ok = await postDesde(app, '/api/postventa/baja', { numSecuPol: num, ...DATOS }, csrf, '192.0.2.51', 'Mozilla/5.0 (iPhone)');
    const invalido = await postDesde(
      app,
      '/api/postventa/arrepentimiento',
      { numSecuPol: num, dni: '30.123.456', email: DATOS.email },
      csrf,
      '192.0.2.52',
      'curl/8',
    );
    expect([mal.statusCode, ok.statusCode, invalido.statusCode]).toEqual([404, 200, 400]);
    const rows = await app.deps.db.query<{
      tipo: string;
      numSecuPol: string;
      codigo: string | null;
      estadoHttp: number;
      ip: string;
      userAgent: string;
      creadoEn: Date;
    }>(
      'SELECT tipo, num_secu_pol AS "numSecuPol", codigo, estado_http AS "estadoHttp", ip, user_agent AS "userAgent", creado_en AS "creadoEn" FROM tramites_auditoria WHERE num_secu_pol = $1 ORDER BY id',
      [num],
    );
    expect(rows.map(({ creadoEn: _, ...r }) => r)).toEqual([
      { tipo: 'BAJA', numSecuPol: num, codigo: null, estadoHttp: 404, ip: '192.0.2.50', userAgent: 'Mozilla/5.0 (Android 14)' },
      { tipo: 'BAJA', numSecuPol: num, codigo: ok.json().codigo, estadoHttp: 200, ip: '192.0.2.51', userAgent: 'Mozilla/5.0 (iPhone)' },
      { tipo: 'ARREPENTIMIENTO', numSecuPol: num, codigo: null, estadoHttp: 400, ip: '192.0.2.52', userAgent: 'curl/8' },
    ]);
    for (const r of rows) expect(new Date(r.creadoEn).getTime()).toBeGreaterThanOrEqual(antes.getTime() - 1000);
    // the DNI and e-mail typed are not kept
    expect(JSON.stringify(await app.deps.db.query('SELECT * FROM tramites_auditoria'))).not.toMatch(/30123456|ana@example/);
  });

  it('baja inside the 10 days: one effective date everywhere; the withdrawal is still accepted and the policy becomes ANULADA', async () => {
    const { num, desde } = await comprar();
    const hoy = hoyArgentina();
    const hasta = sumarDias(hoy, 10);
    const csrf = await getCsrf(app);
    // the request's e-mail differs in case: the confirmation goes to the policy's e-mail of record
    const baja = await post(app, '/api/postventa/baja', { numSecuPol: num, dni: DATOS.dni, email: 'ANA@Example.COM' }, csrf);
    expect(baja.statusCode).toBe(200);
    expectSchema(baja.json(), 'postventa', 'TramiteResponse');
    const codigoBaja = baja.json().codigo as string;
    expect(baja.json()).toEqual({
      codigo: codigoBaja,
      tipo: 'BAJA',
      numSecuPol: num,
      estado: 'BAJA',
      fechaEfectiva: hoy,
      arrepentimientoHasta: hasta,
    });
    const rige = `La baja rige desde las 24 h del ${fecha(hoy)}. No se hacen más débitos desde esa fecha; te devolvemos la parte del premio no devengada (la de los días sin cobertura, o todo si la cobertura todavía no había empezado) por el mismo medio de pago.`;
    expect(texto('legal.bajaRige', { fecha: fecha(hoy) })).toBe(rige);
    const mail = await correo(app, `Recibimos tu pedido de baja — código ${codigoBaja}`);
    expect(mail.para).toBe('ana@example.com');
    expect(mail.texto.split('\n\n').slice(0, 8)).toEqual([
      'Hola, Ana:',
      `Recibimos tu pedido de baja de la póliza ${num} el ${fecha(hoy)}.`,
      rige,
      `La baja no te quita el arrepentimiento: hasta el ${fecha(hasta)} podés usar también el Botón de arrepentimiento, y entonces la póliza queda anulada desde el inicio y te devolvemos todo lo que pagaste.`,
      `Tu código de seguimiento es ${codigoBaja}.`,
      'Podés ver cómo sigue tu trámite cuando quieras con ese código y tu DNI o e-mail en:',
      'http://cotizador.test/tramite',
      `¿No hiciste este pedido? Avisanos cuanto antes al 0800-555-4663 o a atencion@hogarprotegido.example con el código ${codigoBaja}: lo revisamos y, si no fuiste vos, dejamos la póliza como estaba.`,
    ]);
    expect(mail.html).toContain('href="http://cotizador.test/tramite"');
    // the policy e-mail (and the PDF, same text) says the rule with the same sentence, for "the day you ask"
    const poliza = await correo(app, `Tu póliza de hogar ${num}`);
    expect(poliza.texto).toContain(
      'La baja rige desde las 24 h del día en que la pidas. No se hacen más débitos desde esa fecha; te devolvemos la parte del premio no devengada',
    );
    expect(poliza.texto).toContain(
      'la baja no te quita el arrepentimiento: podés usar también el Botón de arrepentimiento, aun después de la baja',
    );
    const pdf = execFileSync('pdftotext', ['-', '-'], { input: await app.postventa.pdfPoliza(num), encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(pdf).toContain(
      'La baja rige desde las 24 h del día en que la pidas. No se hacen más débitos desde esa fecha; te devolvemos la parte del premio no devengada',
    );

    const arr = await post(app, '/api/postventa/arrepentimiento', { numSecuPol: num, ...DATOS }, csrf);
    expect(arr.statusCode).toBe(200);
    expect(arr.json()).toEqual({
      codigo: arr.json().codigo,
      tipo: 'ARREPENTIMIENTO',
      numSecuPol: num,
      estado: 'ANULADA',
      fechaEfectiva: desde,
    });
    const [p] = await app.deps.db.query<{ estado: string; desdeEstado: string }>(
      'SELECT estado, to_char(estado_desde, \'YYYY-MM-DD\') AS "desdeEstado" FROM polizas WHERE num_secu_pol = $1',
      [num],
    );
    expect(p).toEqual({ estado: 'ANULADA', desdeEstado: desde });
    const mailArr = await correo(app, `Recibimos tu arrepentimiento — código ${arr.json().codigo}`);
    expect(mailArr.texto).toContain(
      'La póliza quedó anulada desde su inicio y te devolvemos lo que hayas pagado por el mismo medio de pago.',
    );
    // asking for the baja again: the same code, and the policy's state now
    expect((await post(app, '/api/postventa/baja', { numSecuPol: num, ...DATOS }, csrf)).json()).toEqual({
      codigo: codigoBaja,
      tipo: 'BAJA',
      numSecuPol: num,
      estado: 'ANULADA',
      fechaEfectiva: hoy,
    });
    expect((await app.deps.db.query('SELECT 1 FROM correos WHERE asunto LIKE $1', [`%${codigoBaja}`])).length).toBe(1); // no second e-mail
  });

  it('baja after the 10 days: no withdrawal offered, and a withdrawal is refused', async () => {
    const { num } = await comprar();
    await app.deps.db.query("UPDATE polizas SET emitida_en = now() - interval '11 days' WHERE num_secu_pol = $1", [num]);
    const baja = await post(app, '/api/postventa/baja', { numSecuPol: num, ...DATOS });
    expect(baja.json()).toEqual({
      codigo: baja.json().codigo,
      tipo: 'BAJA',
      numSecuPol: num,
      estado: 'BAJA',
      fechaEfectiva: hoyArgentina(),
    });
    expect((await correo(app, `Recibimos tu pedido de baja — código ${baja.json().codigo}`)).texto).not.toContain('arrepentimiento');
    expectError(
      await post(app, '/api/postventa/arrepentimiento', { numSecuPol: num, ...DATOS }),
      409,
      'CONFLICTO',
      'Esta póliza ya está dada de baja.',
    );
  });

  it('tracking-code lookup: code + DNI or e-mail shows the request; the same 404 for an unknown code and a wrong DNI', async () => {
    const { num, desde } = await comprar();
    const hoy = hoyArgentina();
    const baja = (await post(app, '/api/postventa/baja', { numSecuPol: num, ...DATOS })).json();
    const csrf = await getCsrf(app);
    const esperado = {
      codigo: baja.codigo,
      tipo: 'BAJA',
      numSecuPol: num,
      estado: 'BAJA',
      fechaEfectiva: hoy,
      arrepentimientoHasta: sumarDias(hoy, 10),
      fecha: hoy,
    };
    for (const [codigo, dniOEmail] of [
      [baja.codigo.toLowerCase(), ' 30.123.456 '],
      [baja.codigo, 'Ana@Example.com'],
    ]) {
      const r = await postDesde(app, '/api/postventa/consulta', { codigo, dniOEmail }, csrf, '192.0.2.80');
      expect(r.statusCode).toBe(200);
      expectSchema(r.json(), 'postventa', 'ConsultaResponse');
      expect(r.json()).toEqual(esperado);
    }
    const mensaje = 'No encontramos un trámite con esos datos. Revisá el código de seguimiento y el DNI o e-mail del asegurado.';
    const desconocido = await postDesde(
      app,
      '/api/postventa/consulta',
      { codigo: 'BAJ-22222222AA', dniOEmail: '30123456' },
      csrf,
      '192.0.2.81',
    );
    const otroDni = await postDesde(app, '/api/postventa/consulta', { codigo: baja.codigo, dniOEmail: '30123457' }, csrf, '192.0.2.81');
    const otroMail = await postDesde(
      app,
      '/api/postventa/consulta',
      { codigo: baja.codigo, dniOEmail: 'otra@example.com' },
      csrf,
      '192.0.2.81',
    );
    for (const r of [desconocido, otroDni, otroMail]) expectError(r, 404, 'NO_ENCONTRADO', mensaje);
    expect(otroDni.body).toBe(desconocido.body);
    expect(otroMail.body).toBe(desconocido.body);
    const mal = await post(app, '/api/postventa/consulta', { codigo: 'XYZ', dniOEmail: 'ana' }, csrf);
    expect(mal.statusCode).toBe(400);
    expect(mal.json().errors).toEqual(
      expect.arrayContaining([
        { field: '/codigo', message: 'Ingresá el código de seguimiento tal como te llegó, por ejemplo BAJ-7K3M9Q2XHD.' },
        { field: '/dniOEmail', message: 'Ingresá el DNI (7 u 8 números) o el e-mail del asegurado.' },
      ]),
    );
    // after a withdrawal the baja shows the policy ANULADA, and no withdrawal offered any more
    await post(app, '/api/postventa/arrepentimiento', { numSecuPol: num, ...DATOS });
    const despues = await post(app, '/api/postventa/consulta', { codigo: baja.codigo, dniOEmail: '30123456' }, csrf);
    expect(despues.json()).toEqual({
      codigo: baja.codigo,
      tipo: 'BAJA',
      numSecuPol: num,
      estado: 'ANULADA',
      fechaEfectiva: hoy,
      fecha: hoy,
    });
    const arr = (
      await app.deps.db.query<{ codigo: string }>("SELECT codigo FROM tramites WHERE num_secu_pol = $1 AND tipo = 'ARREPENTIMIENTO'", [num])
    )[0].codigo;
    expect((await post(app, '/api/postventa/consulta', { codigo: arr, dniOEmail: '30123456' }, csrf)).json()).toEqual({
      codigo: arr,
      tipo: 'ARREPENTIMIENTO',
      numSecuPol: num,
      estado: 'ANULADA',
      fechaEfectiva: desde,
      fecha: hoy,
    });
    // audited as CONSULTA
    const audit = await app.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM tramites_auditoria WHERE tipo = 'CONSULTA' AND codigo = $1",
      [baja.codigo],
    );
    expect(audit[0].n).toBe(5); // 2 found + wrong DNI + wrong e-mail + the one after the withdrawal (5: the code's hourly bound)
  });

  it('lookups of one code: at most 5 an hour from any address (a DNI cannot be tried out)', async () => {
    const { num } = await comprar();
    const { codigo } = (await post(app, '/api/postventa/baja', { numSecuPol: num, ...DATOS })).json();
    const csrf = await getCsrf(app);
    const estados: number[] = [];
    let ultimo;
    for (let i = 0; i < 6; i++) {
      ultimo = await postDesde(app, '/api/postventa/consulta', { codigo, dniOEmail: `2000000${i}` }, csrf, `192.0.2.${100 + i}`);
      estados.push(ultimo.statusCode);
    }
    expect(estados).toEqual([404, 404, 404, 404, 404, 429]);
    expectError(
      ultimo!,
      429,
      'DEMASIADAS_SOLICITUDES',
      'Consultaron muchas veces este código en la última hora. Probá de nuevo más tarde, o llamanos al 0800-555-4663 o escribinos a atencion@hogarprotegido.example.',
    );
  });
});
