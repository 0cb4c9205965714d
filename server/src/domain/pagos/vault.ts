/**
 * Payment-number vault: AES-256-GCM (NIST SP 800-38D) with a random 96-bit IV per value and a 128-bit tag.
 * Stored form: "v1:<iv base64>:<tag base64>:<ciphertext base64>". Card numbers and CBUs are only ever stored
 * this way; the clear number lives in memory for the duration of one request (tokenisation) or one emission.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Vault {
  /** Encrypts a clear value (card number / CBU) → stored form. */
  encrypt(clear: string): string;
  /** Decrypts a stored form. @throws Error when the value was tampered with or the key differs. */
  decrypt(stored: string): string;
}

/** @param key 32 bytes */
export function createVault(key: Buffer): Vault {
  if (key.length !== 32) throw new Error('La clave de pagos tiene que tener 32 bytes (64 caracteres hex).');
  return {
    encrypt(clear) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
    },
    decrypt(stored) {
      const [v, iv, tag, ct] = stored.split(':');
      if (v !== 'v1' || !iv || !tag || !ct) throw new Error('Formato de medio de pago cifrado desconocido.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * Resolves the payment key: env PAYMENT_KEY (64 hex chars) if given, else the file `keyFile`
 * (created once with 32 random bytes, mode 0600, when missing).
 * @throws Error when PAYMENT_KEY is set but is not 64 hex characters
 */
export function loadPaymentKey(envValue: string | undefined, keyFile: string): Buffer {
  if (envValue !== undefined && envValue !== '') {
    if (!/^[0-9a-fA-F]{64}$/.test(envValue)) throw new Error('PAYMENT_KEY tiene que tener 64 caracteres hexadecimales.');
    return Buffer.from(envValue, 'hex');
  }
  if (existsSync(keyFile)) return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
  mkdirSync(dirname(keyFile), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(keyFile, key.toString('hex'), { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  return key;
}
