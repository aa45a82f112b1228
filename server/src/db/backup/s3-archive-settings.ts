import type { S3Options } from '../../modules/uploads/s3-store.ts';
import { backupSigningKey } from './backup-signing-key.ts';
import type { S3ArchiveOptions } from './s3-archive-objects.ts';

/**
 * S3 settings for the archive; none when BACKUP_S3=off or no S3 is configured. BACKUP_S3_BUCKET,
 * BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY give the archive its own bucket and credential
 * (recommended: the uploads' key sits on every internet-facing API instance); each falls back to the
 * uploads' S3_*. BACKUP_S3_PREFIX (`backup/`). `key` says where the signing key is (backup-signing-key.ts):
 * the shipper makes it, a restore must find it.
 */
export function s3ArchiveOf(
  uploadsS3: S3Options | undefined,
  env: NodeJS.ProcessEnv,
  key: { dataDir: string; createKey: boolean },
): S3ArchiveOptions | undefined {
  if (!uploadsS3 || env.BACKUP_S3?.trim() === 'off') return undefined;
  const prefix = env.BACKUP_S3_PREFIX?.trim() || 'backup/';
  if (!/^[A-Za-z0-9._-]+\/$/.test(prefix)) throw new Error(`BACKUP_S3_PREFIX must look like name/ (got ${prefix})`);
  const accessKeyId = env.BACKUP_S3_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.BACKUP_S3_SECRET_ACCESS_KEY?.trim();
  if (!accessKeyId !== !secretAccessKey)
    throw new Error('BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY go together');
  return {
    ...uploadsS3,
    bucket: env.BACKUP_S3_BUCKET?.trim() || uploadsS3.bucket,
    ...(accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : {}),
    prefix,
    signingKey: backupSigningKey(key.dataDir, env, key.createKey),
  };
}
