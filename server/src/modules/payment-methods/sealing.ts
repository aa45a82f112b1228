import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Application-level sealing of payout numbers: AES-256-GCM, a fresh 96-bit IV each time, and the
 * owner and record bound in as associated data (a sealed value copied to another user's row does not
 * open). Layout: version (1) | iv (12) | tag (16) | ciphertext.
 */
const VERSION = 1;

export interface Sealer {
  seal(plain: Record<string, string>, binding: string): Buffer;
  open(sealed: Buffer, binding: string): Record<string, string>;
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the payout data key must be 32 bytes');
  return {
    seal(plain, binding) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(binding));
      const body = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed, binding) {
      if (sealed[0] !== VERSION || sealed.length < 29) throw new Error('unknown sealed payout data');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
      decipher.setAAD(Buffer.from(binding));
      decipher.setAuthTag(sealed.subarray(13, 29));
      const plain = Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as Record<string, string>;
    },
  };
}

/**
 * PAYOUT_DATA_KEY (base64 of 32 bytes) from the environment; outside production, a key generated once
 * in DATA_DIR/keys/payout-data.key (0600) when none is set. Production refuses to start without it.
 */
export function loadPayoutKey(dataDir: string, env: NodeJS.ProcessEnv): Buffer {
  const configured = env.PAYOUT_DATA_KEY?.trim();
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('PAYOUT_DATA_KEY must be the base64 of 32 bytes');
    return key;
  }
  const file = path.join(dataDir, 'keys', 'payout-data.key');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
