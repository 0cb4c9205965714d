/**
 * The e-mails the e2e web server's SMTP server received (tests/e2e/servidor-e2e.ts writes each one as
 * `$E2E_DATA_DIR/smtp/<n>-<recipient>.eml`, whole, by a rename). Tests run in several workers against that one
 * server, so each test sends to an address of its own ({@link buzon}) and reads only what went there.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { whenInDir } from '../support/when-in-dir.ts';

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
 * the SMTP folder (tests/support/when-in-dir.ts: fs.watch, an event, not a timer).
 * @param timeoutMs a ceiling for a loaded machine (default 60 000 ms); the mail usually lands in well under a second
 * @throws Error naming the address when no such message arrived in time
 */
export function correo(to: string, pred: (m: ParsedMail) => boolean = () => true, timeoutMs = 60_000): Promise<ParsedMail> {
  const suffix = `-${to}.eml`;
  const read = new Set<string>();
  return whenInDir(
    SMTP_DIR,
    async (): Promise<ParsedMail | undefined> => {
      for (const f of readdirSync(SMTP_DIR)
        .filter((n) => n.endsWith(suffix))
        .sort()) {
        if (read.has(f)) continue;
        read.add(f);
        const m = await simpleParser(readFileSync(join(SMTP_DIR, f)));
        if (pred(m)) return m;
      }
      return undefined;
    },
    { timeoutMs, timeoutMessage: `El servidor SMTP no recibió el e-mail esperado para ${to} en ${timeoutMs / 1000} s` },
  );
}
