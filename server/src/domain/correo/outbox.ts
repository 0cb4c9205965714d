/**
 * E-mail delivery from the outbox (issue 8). Messages are rows of `correos`, written in the same transaction as
 * the fact they tell (a policy issued, a withdrawal recorded), so nothing is lost and a purchase never waits for
 * SMTP. Every instance runs a worker on the poller emission uses too (domain/jobs/poller.ts): each `pollMs` (at
 * once after a full batch) it releases expired claims, claims due messages with FOR UPDATE SKIP LOCKED for `leaseMs`,
 * renders the attachments (PDFs by reference) and hands the message to nodemailer. A failed attempt is retried after
 * `retryBaseMs · 2^(attempt−1)`, capped at `maxBackoffMs` (bounded backoff); after `maxIntentos` it is FALLIDO.
 * Transport: with SMTP_URL, real SMTP (ENVIADO once the server accepted it); without it (the embedded default) the
 * message is built the same way but kept in the outbox as LOCAL — see GET /api/dev/correo.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/index.ts';
import { correosRepository, type AdjuntoRef, type Correo } from '../../db/repositories/correos.ts';
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
  pollMs?: number;
  leaseMs?: number;
  retryBaseMs?: number;
  maxBackoffMs?: number;
  maxIntentos?: number;
}

export interface CorreoService {
  start(): void;
  /** One round: sweep, claim, deliver (awaited). @returns how many messages it handled */
  tick(): Promise<number>;
  /** Looks for work now (after enqueuing). */
  despertar(): void;
  close(): Promise<void>;
}

const LOTE = 5;

/** Creates the outbox worker; `start()` runs it. */
export function createCorreoService(opts: CorreoOptions): CorreoService {
  const { db, log } = opts;
  const pollMs = opts.pollMs ?? 1_000;
  const leaseMs = opts.leaseMs ?? 60_000;
  const retryBaseMs = opts.retryBaseMs ?? 5_000;
  const maxBackoffMs = opts.maxBackoffMs ?? 15 * 60_000;
  const maxIntentos = opts.maxIntentos ?? 8;
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const transport = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl, { from: opts.remitente })
    : nodemailer.createTransport({ streamTransport: true, buffer: true }, { from: opts.remitente });
  const poller = createPoller({
    tick,
    pollMs,
    nextDelay: (n) => (n === LOTE ? 0 : pollMs), // a full batch: there may be more due now
    onError: (err) => log.warn({ error: (err as Error).message }, 'ronda de correos fallida'),
  });

  async function entregar(c: Correo): Promise<void> {
    const repo = correosRepository(db);
    try {
      const attachments = await Promise.all(c.adjuntos.map((a) => opts.adjunto(a)));
      await transport.sendMail({ to: c.para, subject: c.asunto, text: c.texto, html: c.html, attachments });
      await repo.terminar(c.id, worker, opts.smtpUrl ? 'ENVIADO' : 'LOCAL');
      log.info({ correo: c.id, tipo: c.tipo, intento: c.intentos }, opts.smtpUrl ? 'correo enviado' : 'correo guardado (sin SMTP)');
    } catch (err) {
      const mensaje = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const final = c.intentos >= maxIntentos;
      const enMs = Math.min(retryBaseMs * 2 ** (c.intentos - 1), maxBackoffMs);
      await repo.fallo(c.id, worker, mensaje, enMs, final).catch(() => undefined); // the lease expiry hands it over anyway
      log.warn({ correo: c.id, tipo: c.tipo, intento: c.intentos, reintentoEnMs: final ? null : enMs, error: mensaje }, final ? 'correo abandonado' : 'falló el envío del correo; se reintenta');
    }
  }

  /** One round: sweep expired claims, claim due messages and deliver them (handed back if closing meanwhile). */
  async function tick(): Promise<number> {
    if (poller.closed) return 0;
    const repo = correosRepository(db);
    await repo.liberarVencidas();
    const tomados = await repo.tomar(worker, leaseMs, LOTE);
    for (const c of tomados) {
      if (poller.closed) await repo.soltar(c.id, worker);
      else await entregar(c);
    }
    return tomados.length;
  }

  return {
    start: () => poller.start(),
    tick: () => poller.tick(),
    despertar: () => poller.wake(),
    async close() {
      await poller.close(); // a message claimed meanwhile is delivered or handed back before the transport closes
      transport.close();
    },
  };
}
