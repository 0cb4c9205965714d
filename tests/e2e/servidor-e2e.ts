/**
 * The Playwright web server: a real local SMTP server (smtp-server, any free port) that writes every message it
 * receives to `$E2E_DATA_DIR/smtp/<n>-<recipient>.eml` (written beside and renamed, so a reader never sees half a
 * message; tests/e2e/correo.ts reads them by recipient), and the API (server/src/main.ts) sending to it through SMTP_URL — so
 * `npm test` stays self-contained and the specs assert on what an SMTP server really received.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const dir = join(process.env.DATA_DIR ?? '/tmp/cotizador-e2e', 'smtp');
mkdirSync(dir, { recursive: true });
let n = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const number = String(++n).padStart(4, '0');
      // one copy per recipient, named by its envelope address: each test reads only its own address's mail
      for (const rcpt of session.envelope.rcptTo) {
        const file = join(dir, `${number}-${rcpt.address.toLowerCase()}.eml`);
        writeFileSync(`${file}.tmp`, Buffer.concat(chunks));
        renameSync(`${file}.tmp`, file);
      }
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
await import('../../server/src/main.ts');
