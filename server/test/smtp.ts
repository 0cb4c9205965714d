/** A real local SMTP server for tests (smtp-server + mailparser): collects every message it accepts. */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpDePrueba {
  url: string;
  recibidos: ParsedMail[];
  /** Acknowledges every message held back by `opts.retener` (and those it holds from now on, at once). */
  liberar(): void;
  /**
   * Rejects the next `n` messages that `pred` matches (default: any) with a 451 (temporary failure). A test that shares
   * the server with others names its own messages: another test's message still in an outbox would take a rejection.
   */
  rechazar(n: number, pred?: (m: ParsedMail) => boolean): void;
  /**
   * Resolves with the first message that matches `pred`, looked at when each message arrives (not on a timer).
   * @param timeoutMs a ceiling sized for a loaded machine (default 50 s: under the server project's 60 s test timeout,
   *   so its message, which lists what did arrive, is the one reported)
   */
  esperar(pred: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 (port 0 = any free port; the e2e runs pass their own).
 * @param opts.demoraMs a slow server: each message is acknowledged (250 after DATA) this many ms after it arrived
 * @param opts.demoraRcptMs … and each recipient (RCPT TO) this many ms after it was given
 * @param opts.retener messages it matches are held unacknowledged (the client waits) until `liberar()`
 */
export async function iniciarSmtp(
  port = 0,
  opts: { demoraMs?: number; demoraRcptMs?: number; retener?: (m: ParsedMail) => boolean } = {},
): Promise<SmtpDePrueba> {
  const recibidos: ParsedMail[] = [];
  /** Called after each message is added to `recibidos` (esperar's waits). */
  const alLlegar = new Set<() => void>();
  const recibir = (mail: ParsedMail) => {
    recibidos.push(mail);
    for (const f of alLlegar) f(); // a Set iterated while a waiter removes itself still visits every other one
  };
  const retenidos: (() => void)[] = [];
  let liberado = false;
  let rechazos = { n: 0, pred: (_m: ParsedMail) => true };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (opts.demoraRcptMs) setTimeout(() => callback(), opts.demoraRcptMs);
      else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        if (rechazos.n > 0 && rechazos.pred(mail)) {
          rechazos.n--;
          const err = new Error('Probá más tarde') as Error & { responseCode: number };
          err.responseCode = 451;
          return callback(err);
        }
        if (opts.retener?.(mail) && !liberado) {
          retenidos.push(() => {
            recibir(mail);
            callback();
          });
          return;
        }
        if (!opts.demoraMs) {
          recibir(mail);
          return callback();
        }
        setTimeout(() => {
          recibir(mail);
          callback();
        }, opts.demoraMs);
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    recibidos,
    liberar: () => {
      liberado = true;
      for (const ack of retenidos.splice(0)) ack();
    },
    rechazar: (n, pred = () => true) => {
      rechazos = { n, pred };
    },
    esperar: (pred, timeoutMs = 50_000) => esperarMensaje(recibidos, alLlegar, pred, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** SmtpDePrueba › esperar: the first of `recibidos` matching `pred`, looked at now and each time `alLlegar` is called. */
function esperarMensaje(
  recibidos: ParsedMail[],
  alLlegar: Set<() => void>,
  pred: (m: ParsedMail) => boolean,
  timeoutMs: number,
): Promise<ParsedMail> {
  return new Promise<ParsedMail>((resolve, reject) => {
    const mirar = () => {
      const m = recibidos.find(pred);
      if (!m) return;
      fin();
      resolve(m);
    };
    const timer = setTimeout(() => {
      fin();
      reject(new Error(`No llegó el e-mail esperado (llegaron: ${recibidos.map((r) => r.subject).join(' | ')})`));
    }, timeoutMs);
    const fin = () => {
      clearTimeout(timer);
      alLlegar.delete(mirar);
    };
    alLlegar.add(mirar);
    mirar(); // what arrived before the wait
  });
}
