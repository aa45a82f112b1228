import { timingSafeEqual } from 'node:crypto';
import type { lazyClient } from '../../modules/uploads/s3-store.ts';
import { macMatches, macOf } from './backup-signing-key.ts';

type Connection = Awaited<ReturnType<ReturnType<typeof lazyClient>>>;
interface Prefix {
  bucket: string;
  prefix: string;
  signingKey: Buffer;
}

/** `<prefix>owner`: says which signing key ships into this prefix (its MAC under that key). */
const OWNER_KEY = 'owner';
const OWNER_BODY = Buffer.from('cw-backup-owner\n');
/** Signed objects looked at to learn whether the prefix is ours, when it has no owner object yet. */
const MAX_PROBES = 20;
const claimed = new WeakMap<Prefix, true>();

const sameMac = (a: string, b: string | undefined) =>
  b !== undefined && /^[0-9a-f]{64}$/.test(b) && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/**
 * Refuses to ship into a prefix that objects signed with another key already hold (review s8b B): a
 * host that made a NEW signing key (a restored copy, a promoted standby, a second installation with the
 * same BACKUP_S3_PREFIX) would otherwise mix keys in the bucket, and every later restore would fail.
 * The first run writes `<prefix>owner` signed with this key; later runs check it (one HEAD, then once
 * per process). With no owner object yet (a fresh prefix, or one shipped before this check), the prefix
 * is claimed only when no signed object there fails to verify under this key. `walKeys`: listed `.sha256`
 * objects (small: the probe reads them whole).
 */
export async function claimPrefix(s3: Prefix, { sdk, client }: Connection, walKeys: string[]): Promise<void> {
  if (claimed.has(s3)) return;
  const refuse = (why: string) =>
    new Error(
      `S3 archive refused: ${why} in s3://${s3.bucket}/${s3.prefix}, so this host's backup signing key is not the one that shipped them. Copy backup-signing-key from the primary that owns this prefix into DATA_DIR (or set BACKUP_SIGNING_KEY), or give this cluster its own BACKUP_S3_PREFIX`,
    );
  const ownMac = macOf(s3.signingKey, OWNER_KEY, OWNER_BODY);
  const owner = await client
    .send(new sdk.HeadObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}${OWNER_KEY}` }))
    .catch((err: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
      if (err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404) return undefined;
      throw err;
    });
  if (owner) {
    if (!sameMac(ownMac, owner.Metadata?.['cw-mac'])) throw refuse('the owner object is signed with another key');
  } else {
    for (const key of walKeys.slice(-MAX_PROBES).reverse()) {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}${key}` }));
      const mac = answer.Metadata?.['cw-mac'];
      if (mac === undefined) continue; // shipped before MACs existed: checked by content (s3-archive.ts)
      const bytes = Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
      if (!macMatches(s3.signingKey, key, bytes, mac)) throw refuse(`${key} is signed with another key`);
      break;
    }
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: s3.bucket,
        Key: `${s3.prefix}${OWNER_KEY}`,
        Body: OWNER_BODY,
        Metadata: { 'cw-mac': ownMac },
      }),
    );
  }
  claimed.set(s3, true);
}
