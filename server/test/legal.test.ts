/**
 * What the law asks of the sale and after it, through the API on in-memory PGlite with a real local SMTP server
 * (mailparser reads what it got):
 * - the insurer's data come from config/aseguradora.json, and a production server refuses to start with its example
 *   values (the function and the real process);
 * - the policy e-mail has an HTML part whose links (download, arrepentimiento, baja, atención al asegurado) are the
 *   same as the text part's and work: the download link serves the attached PDF; the conditions are attached;
 * - after a withdrawal (or a cancellation) the same download link serves the policy marked ANULADA (BAJA) with its
 *   dates, read with pdftotext;
 * - the conditions document (general, and a quote's) lists general conditions, exclusions, deductibles and sums.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import aseguradoraJson from '../../config/aseguradora.json' with { type: 'json' };
import { ASEGURADORA, cuitValido, problemasAseguradora, verificarAseguradora } from '../src/domain/legal/aseguradora.ts';
import { texto } from '../src/domain/postventa/textos.ts';
import { hoyArgentina } from '../src/domain/validation/fechas.ts';
import { buildTestApp, cotizarBody, get, getCsrf, post, recorrerJourney } from './helper.ts';
import { startServer } from './processes.ts';
import { iniciarSmtp, type SmtpDePrueba } from './smtp.ts';

const OUT = join(import.meta.dirname, '../../test-results/pdf');
const URL_PUBLICA = 'http://cotizador.test';

/** Text of a PDF (pdftotext -layout) and, for a person to look at, its pages as PNG under test-results/pdf. */
function textoPdf(pdf: Buffer, nombre: string): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${nombre}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '70', file, join(OUT, nombre)]);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** The links of an HTML e-mail: [words, href] in order. */
function enlaces(html: string): [string, string][] {
  return [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[2], m[1].replace(/&amp;/g, '&')]);
}

const ddmmaaaa = (iso: string) => iso.split('-').reverse().join('/');

let smtp: SmtpDePrueba;
let app: FastifyInstance;
beforeAll(async () => {
  smtp = await iniciarSmtp();
  app = await buildTestApp({ smtpUrl: smtp.url, publicUrl: URL_PUBLICA, correo: { pollMs: 20, retryBaseMs: 20 }, tramitesPorHora: 1000 });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe('insurer data: one configuration file, no example values in production', () => {
  it('the footer text of PDFs and e-mails reads config/aseguradora.json', () => {
    expect(texto('legal.pie')).toBe(
      `${aseguradoraJson.nombre} · CUIT ${aseguradoraJson.cuit} · Inscripta en la Superintendencia de Seguros de la Nación con el N.º ${aseguradoraJson.registroSsn} · ${aseguradoraJson.domicilio} · ${aseguradoraJson.telefono} · ${aseguradoraJson.email}`,
    );
  });

  it('the repository values are examples: every one is named; outside production nothing is checked', () => {
    expect(problemasAseguradora(ASEGURADORA)).toEqual([
      'datosDeReferencia tiene que ser false',
      'el CUIT 30-71234567-9 no es válido (dígito verificador)',
      'el N.º de inscripción en la SSN "0000" no es real',
      'email (atencion@hogarprotegido.example) es una dirección de ejemplo',
      'siniestrosEmail (siniestros@hogarprotegido.example) es una dirección de ejemplo',
      'datosEmail (datospersonales@hogarprotegido.example) es una dirección de ejemplo',
    ]);
    expect(() => verificarAseguradora({ NODE_ENV: 'test' })).not.toThrow();
    expect(() => verificarAseguradora({})).not.toThrow();
    expect(() => verificarAseguradora({ NODE_ENV: 'production' })).toThrow(
      /^Los datos de la aseguradora en config\/aseguradora\.json son de ejemplo y no se pueden publicar \(NODE_ENV=production\): datosDeReferencia tiene que ser false; el CUIT 30-71234567-9 no es válido/,
    );
  });

  it('real-looking data pass in production (CUIT with a right check digit, an SSN number, real domains)', () => {
    expect(cuitValido('30-71234567-1')).toBe(true);
    expect(cuitValido('30-71234567-9')).toBe(false);
    const real = {
      ...ASEGURADORA,
      datosDeReferencia: false,
      cuit: '30-71234567-1',
      registroSsn: '1234',
      email: 'atencion@aseguradora.com.ar',
      siniestrosEmail: 'siniestros@aseguradora.com.ar',
      datosEmail: 'datos@aseguradora.com.ar',
    };
    expect(problemasAseguradora(real)).toEqual([]);
    expect(() => verificarAseguradora({ NODE_ENV: 'production' }, real)).not.toThrow();
    expect(problemasAseguradora({ ...real, registroSsn: '' })).toEqual([
      'registroSsn está vacío',
      'el N.º de inscripción en la SSN "" no es real',
    ]);
  });

  it('the real server with NODE_ENV=production exits with code 1 and the Spanish message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'h8b-legal-'));
    const server = await startServer(0, { NODE_ENV: 'production', DATA_DIR: dir }, { waitReady: false });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('No se pudo iniciar la API: Los datos de la aseguradora en config/aseguradora.json son de ejemplo');
    expect(server.output()).toContain('el N.º de inscripción en la SSN "0000" no es real');
  });
});

describe('policy e-mail in HTML and text, with the links the PDF refers to', () => {
  let mail: ParsedMail;
  let num: string;
  let token: string;
  beforeAll(async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: '4242424242424242' });
    num = estado.numSecuPol as string;
    token = estado.documento as string;
    mail = await smtp.esperar((m) => m.subject === `Tu póliza de hogar ${num}`);
  });

  it('has download, arrepentimiento, baja and atención links in HTML, the same URLs in the text part', () => {
    expect(typeof mail.html).toBe('string');
    const links = enlaces(mail.html as string);
    expect(links.map(([w]) => w)).toEqual([
      'Descargar tu póliza (PDF)',
      'Cómo denunciar un siniestro o pedir una copia de la póliza',
      'Botón de arrepentimiento',
      'Botón de baja',
    ]);
    const [descarga, atencion, arrepentimiento, baja] = links.map(([, h]) => h);
    expect(descarga).toMatch(new RegExp(`^${URL_PUBLICA}/api/documentos/poliza/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(atencion).toBe(`${URL_PUBLICA}/atencion-al-asegurado`);
    expect(arrepentimiento).toBe(`${URL_PUBLICA}/arrepentimiento`);
    expect(baja).toBe(`${URL_PUBLICA}/baja`);
    for (const [w, h] of links) expect(mail.text).toContain(`${w}: ${h}`);
    expect(mail.text).toContain('Te adjuntamos la póliza y sus condiciones');
  });

  it('the download link serves the attached policy; the conditions of its plan are attached too', async () => {
    const descarga = enlaces(mail.html as string)[0][1];
    const res = await app.inject({ method: 'GET', url: descarga.slice(URL_PUBLICA.length) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(mail.attachments[0].content)).toBe(true);
    const poliza = textoPdf(mail.attachments[0].content, 'legal-poliza');
    expect(poliza).not.toContain('ANULADA');
    expect(poliza).toMatch(/11 cuotas de \$\s[\d.]+,\d{2} y una de \$\s[\d.]+,\d{2}|12 cuotas de \$\s[\d.]+,\d{2}/);

    expect(mail.attachments[1]).toMatchObject({ filename: `condiciones-${num}.pdf`, contentType: 'application/pdf' });
    const cond = textoPdf(mail.attachments[1].content, 'legal-condiciones-poliza');
    expect(cond).toContain('Condiciones del seguro');
    expect(cond).toContain(num);
    expect(cond).toContain('CONDICIONES GENERALES');
    expect(cond).toContain('EXCLUSIONES GENERALES');
    expect(cond).toContain('Robo y hurto de contenido');
    expect(cond).toMatch(/Franquicia: 10 % de cada siniestro, con un mínimo de \$\s50\.000/);
    expect(cond).toMatch(/Intermedio\s+\$\s[\d.]+/); // the policy's plan, its sums in ARS
    expect(cond).not.toContain('Integral');
    expect(cond).toContain('NO son condiciones aprobadas por la SSN');
  });

  it('after a withdrawal the same link serves the policy marked ANULADA with its dates', async () => {
    const csrf = await getCsrf(app);
    const r = await post(app, '/api/postventa/arrepentimiento', { numSecuPol: num, dni: '30123456', email: 'ana@example.com' }, csrf);
    expect(r.statusCode).toBe(200);
    const res = await app.inject({ method: 'GET', url: `/api/documentos/poliza/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(mail.attachments[0].content)).toBe(false);
    const txt = textoPdf(res.rawPayload, 'legal-poliza-anulada');
    expect(txt).toContain('PÓLIZA ANULADA POR ARREPENTIMIENTO');
    expect(txt).toContain(
      `Pedida el ${ddmmaaaa(hoyArgentina())}. La póliza quedó sin efecto desde el inicio de su vigencia (${ddmmaaaa(r.json().fechaEfectiva)})`,
    );
    expect(txt).toContain(num);
  });
});

describe('a cancelled policy', () => {
  it('serves its PDF marked BAJA with the date it takes effect', async () => {
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: '4242424242424242' });
    const csrf = await getCsrf(app);
    const r = await post(app, '/api/postventa/baja', { numSecuPol: estado.numSecuPol, dni: '30123456', email: 'ana@example.com' }, csrf);
    expect(r.statusCode).toBe(200);
    const txt = textoPdf(
      (await app.inject({ method: 'GET', url: `/api/documentos/poliza/${estado.documento as string}` })).rawPayload,
      'legal-poliza-baja',
    );
    expect(txt).toContain('PÓLIZA DADA DE BAJA');
    expect(txt).toContain(`Sin cobertura desde las 24 horas del ${ddmmaaaa(r.json().fechaEfectiva)}`);
  });
});

describe('conditions document', () => {
  it('general: every plan, sums as the tariff states them, without a session', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/documentos/condiciones' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const txt = textoPdf(res.rawPayload, 'legal-condiciones-generales');
    expect(txt).toContain('Guerra, guerrilla, terrorismo');
    expect(txt).toMatch(/Básico\s+60 % del valor de reposición del edificio/);
    expect(txt).toMatch(/Integral\s+100 % del valor de reposición del edificio/);
    expect(txt).toContain('Franquicia: sin franquicia');
    expect(txt.replace(/\s+/g, ' ')).toContain(
      'Las primeras 11 son el premio dividido por 12 redondeado hacia arriba al centavo; la última, la diferencia.',
    );
  });

  it('the quote e-mail links the general conditions, and the link serves them', async () => {
    const csrf = await getCsrf(app);
    const cot = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ email: 'condiciones@example.com' }), csrf)).json();
    expect((await post(app, '/api/cotizacion/enviar', { refId: cot.refId, respuestas: {}, versionFlujo: 2 }, csrf)).statusCode).toBe(200);
    const mail = await smtp.esperar(
      (m) =>
        m.subject === 'Tu cotización de seguro de hogar' && m.to !== undefined && 'text' in m.to && m.to.text === 'condiciones@example.com',
    );
    const link = enlaces(mail.html as string).find(
      ([w]) => w === 'Condiciones del seguro (PDF): exclusiones, franquicias y sumas aseguradas',
    );
    expect(link?.[1]).toBe(`${URL_PUBLICA}/api/documentos/condiciones`);
    expect(mail.text).toContain(
      `Condiciones del seguro (PDF): exclusiones, franquicias y sumas aseguradas: ${URL_PUBLICA}/api/documentos/condiciones`,
    );
    const res = await app.inject({ method: 'GET', url: String(link?.[1]).slice(URL_PUBLICA.length) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
  });

  it("a quote's: its plans' sums in ARS; another session's quote is a Spanish 404", async () => {
    const csrf = await getCsrf(app);
    const cot = (await post(app, '/api/cotizacion/cotizar', cotizarBody(), csrf)).json();
    const res = await get(app, `/api/documentos/condiciones/${cot.refId}`, csrf);
    expect(res.statusCode).toBe(200);
    const txt = textoPdf(res.rawPayload, 'legal-condiciones-cotizacion');
    const incendio = (p: { coberturas: { primary: { codCobertura: string; sumaAseguradaString: string }[] } }) =>
      p.coberturas.primary.find((c) => c.codCobertura === '101')?.sumaAseguradaString as string;
    for (const p of cot.planes)
      expect(txt).toMatch(
        new RegExp(
          `${p.nombre}\\s+${incendio(p)
            .replace(/\$\u00a0/, '\\$\\s')
            .replace(/\./g, '\\.')}`,
        ),
      );
    const otra = await get(app, `/api/documentos/condiciones/${cot.refId}`, await getCsrf(app));
    expect(otra.statusCode).toBe(404);
    expect(otra.json().message).toBe('No encontramos tu cotización. Volvé a cotizar.');
  });
});
