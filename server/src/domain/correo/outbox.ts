/**
 * E-mail delivery from the outbox. Messages are rows of `correos`, written in the same transaction
 * as the fact they tell (a policy issued, a withdrawal recorded), so nothing is lost and a purchase never waits for
 * SMTP. Every instance runs a worker on the poller emission uses too (domain/jobs/poller.ts).
 *
 * Each round claims (FOR UPDATE SKIP LOCKED, for `leaseMs`) only as many due messages as it has free sending slots
 * (`concurrencia`, default 5) and sends them in the background, so a slow SMTP answer holds one slot, never the rest of
 * the mail; a finished send frees its slot and looks for more at once.
 *
 * Neither lost nor repeated:
 * - Every SMTP wait is bounded (nodemailer connectionTimeout, greetingTimeout and socketTimeout = `smtpTimeoutMs`,
 *   default 30 s, instead of nodemailer's 2 and 10 min), and the lease must exceed it (config.ts refuses
 *   CORREO_LEASE_MS ≤ CORREO_SMTP_TIMEOUT_MS). While a send is in progress its holder renews the claim every
 *   `leaseMs / 3`, so another instance only takes a message over when its holder died (or lost the database for a
 *   whole lease); a live holder always ends its send first, with a success or a timeout.
 * - Each claim increments `correos.version`, a fencing token: a failure, renewal or hand-back of an older claim
 *   changes nothing (it cannot overwrite a newer claim or a "sent"), while a "sent" is recorded whichever claim
 *   reports it — the message WAS sent, so it is marked ENVIADO (also over a dead letter) and never goes again.
 *   (A holder that died after the server accepted but before recording it is the one case a copy can repeat: the
 *   at-least-once edge every outbox has.)
 * - A failed attempt is retried after `retryBaseMs · 2^(attempt−1)`, capped at `maxBackoffMs` (default 1 h), for as
 *   long as the message is younger than `vidaMaxMs` (CORREO_VIDA_MAX_HORAS, default 72 h: what a mail server's own
 *   queue keeps trying); the first failure after that makes it a dead letter, FALLIDO. Dead letters are counted in
 *   GET /api/health/ready and go back to the queue with `npm run correo:reencolar` (scripts/correo-reencolar.ts).
 *
 * Why not pg-boss or graphile-worker: both drive a PostgreSQL server through a `pg` pool (LISTEN/NOTIFY, their own
 * schema and functions); the embedded default, PGlite, runs in-process behind one connection and is no `pg` server, so
 * either would need a second job mechanism for the default setup. The outbox keeps the poller emission already uses,
 * over plain SQL that runs the same on both, and these cases are tested (server/test/correo-entrega.test.ts).
 *
 * Transport: with SMTP_URL, real SMTP (ENVIADO once the server accepted it); without it (the embedded default) the
 * message is kept in the outbox as LOCAL, neither rendered nor built: nothing would read the MIME, and its PDFs were
 * ~18 % of a headless replay's CPU. GET /api/dev/correo shows the message and renders each attachment on request.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { DEFAULTS } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { correosRepository, type AdjuntoRef, type CorreoTomado } from '../../db/repositories/correos.ts';
import { createPoller } from '../jobs/poller.ts';

export interface Adjunto {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface CorreoOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** smtp://user:pass@host:port (env SMTP_URL); undefined → kept in the outbox (LOCAL). */
  smtpUrl?: string;
  /** From header (env MAIL_FROM). */
  remitente: string;
  /** Renders an attachment named by reference. */
  adjunto: (ref: AdjuntoRef) => Promise<Adjunto>;
  /** Between rounds when idle, ms. Defaults of all the timings and `concurrencia`: config.ts › DEFAULTS.postventa.correo. */
  pollMs?: number;
  /** Claim lease, ms; must exceed `smtpTimeoutMs`. */
  leaseMs?: number;
  /** Bound of every SMTP wait (connect + greeting, each answer), ms. */
  smtpTimeoutMs?: number;
  /** First retry delay, doubled per attempt up to `maxBackoffMs`, ms. */
  retryBaseMs?: number;
  maxBackoffMs?: number;
  /** Age (since queued) after which a failure makes the message a dead letter, FALLIDO, ms. */
  vidaMaxMs?: number;
  /** Messages sent at once by this instance. */
  concurrencia?: number;
}

export interface CorreoService {
  start(): void;
  /** One round: claim what fits the free slots and deliver it (awaited). @returns how many messages it claimed */
  tick(): Promise<number>;
  /** Looks for work now (after enqueuing). */
  despertar(): void;
  close(): Promise<void>;
}

/**
 * Creates the outbox worker; `start()` runs it.
 * @throws Error when `leaseMs` ≤ `smtpTimeoutMs` (another instance could take over a message being sent)
 */
export function createCorreoService(opts: CorreoOptions): CorreoService {
  const { db, log } = opts;
  const { pollMs, leaseMs, smtpTimeoutMs, retryBaseMs, maxBackoffMs, vidaMaxMs, concurrencia } = {
    ...DEFAULTS.postventa.correo,
    ...definidos(opts),
  };
  if (leaseMs <= smtpTimeoutMs)
    throw new Error(`La toma de un correo (${leaseMs} ms) tiene que durar más que la espera máxima de SMTP (${smtpTimeoutMs} ms).`);
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const timeouts = { connectionTimeout: smtpTimeoutMs, greetingTimeout: smtpTimeoutMs, socketTimeout: smtpTimeoutMs };
  const transport = opts.smtpUrl ? nodemailer.createTransport({ url: opts.smtpUrl, ...timeouts }, { from: opts.remitente }) : undefined;
  const entrega: Entrega = {
    db,
    log,
    transport,
    adjunto: opts.adjunto,
    leaseMs,
    retryBaseMs,
    maxBackoffMs,
    vidaMaxMs,
  };
  const enVuelo = new Set<Promise<void>>();
  let lleno = false; // the last round filled every slot: a freed slot looks for more at once
  const poller = createPoller({
    tick: ronda,
    pollMs,
    // after a round that filled every slot, the next starts as soon as a slot frees (lanzar → wake)
    onError: (err) => log.warn({ error: (err as Error).message }, 'ronda de correos fallida'),
  });

  /** Starts `c`'s delivery in the background, in a slot of its own. */
  function lanzar(c: CorreoTomado): void {
    const p = entregar(c, entrega)
      .catch((err: unknown) => log.warn({ correo: c.id, error: (err as Error).message }, 'entrega de correo fallida'))
      .finally(() => {
        enVuelo.delete(p);
        if (lleno) poller.wake();
      });
    enVuelo.add(p);
  }

  /** One round: claims up to the free slots and starts their deliveries (handed back if closing meanwhile). @returns how many */
  async function ronda(): Promise<number> {
    const libres = concurrencia - enVuelo.size;
    lleno = libres <= 0;
    if (poller.closed || libres <= 0) return 0;
    const repo = correosRepository(db);
    const tomados = await repo.tomar(worker, leaseMs, libres);
    lleno = tomados.length === libres;
    for (const c of tomados) {
      if (poller.closed) await repo.soltar(c.id, c.version);
      else lanzar(c);
    }
    return tomados.length;
  }

  return {
    start: () => poller.start(),
    async tick() {
      const n = await poller.tick();
      await Promise.all(enVuelo);
      return n;
    },
    despertar: () => poller.wake(),
    async close() {
      await poller.close(); // no round claims any more
      await Promise.all(enVuelo); // every send ends within the SMTP timeouts and is recorded
      transport?.close();
    },
  };
}

/** What one delivery needs: the outbox, the transport and the timings (CorreoOptions, defaults applied). */
interface Entrega {
  db: Db;
  log: FastifyBaseLogger;
  /** SMTP; none (no SMTP_URL): the message is kept as LOCAL, unrendered (see the header). */
  transport: Transporter | undefined;
  adjunto: CorreoOptions['adjunto'];
  leaseMs: number;
  retryBaseMs: number;
  maxBackoffMs: number;
  vidaMaxMs: number;
}

/**
 * Delivers claimed message `c`: renders its attachments, sends it while renewing the claim every `leaseMs / 3`, then
 * records the outcome (sent, or the failed attempt with its next retry or dead letter). With no SMTP it is recorded
 * as LOCAL at once.
 */
async function entregar(c: CorreoTomado, e: Entrega): Promise<void> {
  const transport = e.transport;
  if (!transport) return registrarEnvio(c, e);
  const repo = correosRepository(e.db);
  // Keeps the claim while the send runs (a slow server must not let another instance send it again).
  const renovacion = setInterval(
    () => {
      repo
        .renovar(c.id, c.version, e.leaseMs)
        .catch((err: unknown) => e.log.warn({ correo: c.id, error: (err as Error).message }, 'no se pudo renovar la toma del correo'));
    },
    Math.max(Math.floor(e.leaseMs / 3), 1),
  );
  try {
    const attachments = await Promise.all(c.adjuntos.map((a) => e.adjunto(a)));
    await transport.sendMail({ to: c.para, subject: c.asunto, text: c.texto, html: c.html, attachments });
  } catch (err) {
    clearInterval(renovacion); // before the failure is recorded (renovar also skips a released claim)
    await registrarFallo(c, err, e);
    return;
  } finally {
    clearInterval(renovacion);
  }
  await registrarEnvio(c, e);
}

/**
 * Records a failed attempt of `c`: next try after `retryBaseMs · 2^(attempt−1)` capped at `maxBackoffMs`, or FALLIDO
 * once older than `vidaMaxMs` (the repository decides on the database clock). A failure to record is left to the lease.
 */
async function registrarFallo(c: CorreoTomado, err: unknown, e: Entrega): Promise<void> {
  const mensaje = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  const enMs = Math.min(e.retryBaseMs * 2 ** Math.max(c.intentos - 1, 0), e.maxBackoffMs);
  const estado = await correosRepository(e.db)
    .fallo(c.id, c.version, mensaje, enMs, e.vidaMaxMs)
    .catch(() => undefined); // the lease expiry hands it over anyway
  const datos = { correo: c.id, tipo: c.tipo, intento: c.intentos, error: mensaje };
  if (estado === 'FALLIDO') e.log.error(datos, 'correo abandonado (FALLIDO): npm run correo:reencolar lo vuelve a la cola');
  else e.log.warn({ ...datos, reintentoEnMs: estado === 'PENDIENTE' ? enMs : null }, 'falló el envío del correo; se reintenta');
}

/**
 * Records that `c` was sent (ENVIADO, or LOCAL without SMTP) whatever happened to the claim meanwhile: it was sent, so
 * it must never go again. Up to 3 tries, 200 ms · try apart; after that it is logged as an error (it may go again).
 */
async function registrarEnvio(c: CorreoTomado, e: Entrega): Promise<void> {
  for (let intento = 1; ; intento++) {
    try {
      await correosRepository(e.db).terminar(c.id, c.version, e.transport ? 'ENVIADO' : 'LOCAL');
      break;
    } catch (err) {
      if (intento >= 3) {
        e.log.error({ correo: c.id, error: (err as Error).message }, 'correo enviado pero no registrado: puede salir de nuevo');
        return;
      }
      await new Promise((r) => setTimeout(r, 200 * intento));
    }
  }
  e.log.info({ correo: c.id, tipo: c.tipo, intento: c.intentos }, e.transport ? 'correo enviado' : 'correo guardado (sin SMTP)');
}

/** `o` without its undefined fields (so defaults apply). */
function definidos<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
