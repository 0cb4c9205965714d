/**
 * Signed, expiring link tokens (policy PDF download, resume a quote): `<payload>.<signature>`, both base64url, where
 * payload = JSON `{ k: kind, id, exp: unix seconds }` and signature = HMAC-SHA256(key, "<kind>|<payload>") truncated
 * to 128 bits. Nothing guessable (the id is a UUID or a policy number, but no token verifies without the key) and no
 * personal data (an id and a date only). The key comes from config (LINK_KEY, or DATA_DIR/link.key made once).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type TipoToken = 'poliza' | 'cotizacion';

/** What a redacted token reads as in the logs. */
export const TOKEN_REDACTADO = '[token]';
/**
 * A token (or a piece of one) inside any text: its payload is base64url JSON that always starts `{"k"` ("eyJr"),
 * optionally followed by "." and the signature.
 */
const TOKEN_EN_TEXTO = /eyJr[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*)?/g;

/**
 * @param text any text (a log line, a URL)
 * @returns the text with every link token replaced by {@link TOKEN_REDACTADO} (whoever reads the logs must
 *   not be able to open a policy PDF or a quote)
 */
export function redactarTokens(text: string): string {
  return text.includes('eyJr') ? text.replace(TOKEN_EN_TEXTO, TOKEN_REDACTADO) : text;
}
export type Verificacion = { ok: true; id: string } | { ok: false; motivo: 'INVALIDO' | 'VENCIDO' };

/** Token signer/verifier for `key` (≥ 32 bytes). */
export function createTokens(key: Buffer) {
  const firma = (tipo: string, payload: string) => createHmac('sha256', key).update(`${tipo}|${payload}`).digest().subarray(0, 16);
  return {
    /**
     * @param tipo what the token opens @param id what it names @param ttlMs validity from `now`, ms
     * @returns the token (URL-safe)
     */
    firmar(tipo: TipoToken, id: string, ttlMs: number, now: number = Date.now()): string {
      const payload = Buffer.from(JSON.stringify({ k: tipo, id, exp: Math.floor((now + ttlMs) / 1000) })).toString('base64url');
      return `${payload}.${firma(tipo, payload).toString('base64url')}`;
    },
    /** @returns the id when `token` is a well-signed, unexpired token of kind `tipo`; else why not (tampered → INVALIDO) */
    verificar(tipo: TipoToken, token: string, now: number = Date.now()): Verificacion {
      const [payload, sig, ...rest] = token.split('.');
      if (!payload || !sig || rest.length > 0) return { ok: false, motivo: 'INVALIDO' };
      const esperada = firma(tipo, payload);
      const dada = Buffer.from(sig, 'base64url');
      if (dada.length !== esperada.length || !timingSafeEqual(dada, esperada)) return { ok: false, motivo: 'INVALIDO' };
      let data: { k?: unknown; id?: unknown; exp?: unknown };
      try {
        data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return { ok: false, motivo: 'INVALIDO' };
      }
      if (data.k !== tipo || typeof data.id !== 'string' || typeof data.exp !== 'number') return { ok: false, motivo: 'INVALIDO' };
      if (data.exp * 1000 <= now) return { ok: false, motivo: 'VENCIDO' };
      return { ok: true, id: data.id };
    },
  };
}
export type Tokens = ReturnType<typeof createTokens>;

/**
 * The link-token key: LINK_KEY (64 hex characters) or, without it, `keyFile` (made once, mode 600). With several
 * instances, set the same LINK_KEY everywhere (like PAYMENT_KEY).
 * @throws Error when LINK_KEY is malformed
 */
export function loadLinkKey(envValue: string | undefined, keyFile: string): Buffer {
  if (envValue !== undefined && envValue !== '') {
    if (!/^[0-9a-fA-F]{64}$/.test(envValue)) throw new Error('LINK_KEY tiene que tener 64 caracteres hexadecimales.');
    return Buffer.from(envValue, 'hex');
  }
  if (existsSync(keyFile)) return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
  mkdirSync(dirname(keyFile), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(keyFile, key.toString('hex'), { mode: 0o600 });
  return key;
}
