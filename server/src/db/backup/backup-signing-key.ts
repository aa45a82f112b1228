import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The key that authenticates what the S3 archive holds (review s8 finding 2). The bucket's own
 * checksums only catch corruption: whoever holds the bucket credential can replace a segment together
 * with its checksum. Each object therefore carries an HMAC-SHA256 of its key name and content under
 * this key, which never goes to the bucket: BACKUP_SIGNING_KEY, or DATA_DIR/backup-signing-key
 * (mode 0600, made on the primary's first shipping run). A restore on another host needs the same key
 * (copy the file, or set BACKUP_SIGNING_KEY): keep a copy in the operators' keyring.
 */
export const SIGNING_KEY_FILE = 'backup-signing-key';
const MIN_KEY_CHARS = 32;

export function backupSigningKey(dataDir: string, env: NodeJS.ProcessEnv, create: boolean): Buffer {
  const fromEnv = env.BACKUP_SIGNING_KEY?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_KEY_CHARS)
      throw new Error(`BACKUP_SIGNING_KEY must have at least ${MIN_KEY_CHARS} characters`);
    return Buffer.from(fromEnv, 'utf8');
  }
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file)) {
    if (!create)
      throw new Error(
        `no backup signing key: copy ${SIGNING_KEY_FILE} from the primary's DATA_DIR to ${file}, or set BACKUP_SIGNING_KEY`,
      );
    // 'wx': two processes racing to make it cannot overwrite each other's key.
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  }
  const key = readFileSync(file, 'utf8').trim();
  if (key.length < MIN_KEY_CHARS) throw new Error(`${file} is too short to be a backup signing key`);
  return Buffer.from(key, 'utf8');
}

/** HMAC-SHA256 over the object's key (so that objects cannot be swapped) and its bytes, hex. */
export function macOf(key: Buffer, objectKey: string, bytes: Buffer): string {
  return createHmac('sha256', key).update(`${objectKey}\n`).update(bytes).digest('hex');
}

export function macMatches(key: Buffer, objectKey: string, bytes: Buffer, mac: string | undefined): boolean {
  if (!mac || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(macOf(key, objectKey, bytes), 'hex'), Buffer.from(mac, 'hex'));
}
