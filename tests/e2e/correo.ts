/**
 * The e-mails the e2e web server's SMTP server received (tests/e2e/servidor-e2e.ts writes each one as
 * `$E2E_DATA_DIR/smtp/<n>-<recipient>.eml`, whole, by a rename). Tests run in several workers against that one
 * server, so each test sends to an address of its own ({@link buzon}) and reads only what went there.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';

const SMTP_DIR = join(process.env.E2E_DATA_DIR as string, 'smtp');

/**
 * The address a test sends its mail to: one per test, project, repetition and retry (`e2e-<12 hex>@example.com`), so
 * no other test, in this worker or another, ever reads its mail.
 */
export function buzon(info: TestInfo): string {
  const id = createHash('sha256').update(`${info.testId}:${info.repeatEachIndex}:${info.retry}`).digest('hex').slice(0, 12);
  return `e2e-${id}@example.com`;
}

/**
 * Waits for the first message to `to` that satisfies `pred` (oldest first), looking again each time a file lands in
 * the SMTP folder (fs.watch: an event, not a timer).
 * @param timeoutMs a ceiling for a loaded machine (default 60 000 ms); the mail usually lands in well under a second
 * @throws Error naming the address when no such message arrived in time
 */
export async function correo(to: string, pred: (m: ParsedMail) => boolean = () => true, timeoutMs = 60_000): Promise<ParsedMail> {
  const suffix = `-${to}.eml`;
  const read = new Set<string>();
  const look = async (): Promise<ParsedMail | undefined> => {
    for (const f of readdirSync(SMTP_DIR)
      .filter((n) => n.endsWith(suffix))
      .sort()) {
      if (read.has(f)) continue;
      read.add(f);
      const m = await simpleParser(readFileSync(join(SMTP_DIR, f)));
      if (pred(m)) return m;
    }
    return undefined;
  };
  const watcher = watch(SMTP_DIR);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<ParsedMail>((resolve, reject) => {
      let busy = Promise.resolve();
      const check = () => {
        busy = busy
          .then(async () => {
            const m = await look();
            if (m) resolve(m);
          })
          .catch(reject);
      };
      watcher.on('change', check);
      watcher.on('error', reject);
      timer = setTimeout(
        () => reject(new Error(`El servidor SMTP no recibió el e-mail esperado para ${to} en ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      check(); // what arrived before the watch started
    });
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}
