import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ObjectStore } from './storage.ts';

export interface S3Options {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket, e.g. `uploads/`. */
  prefix?: string;
}

/**
 * S3-compatible storage (S3_* settings). Path-style addressing works with MinIO, Ceph and small test
 * servers; checksums only when an operation requires them, since the SDK's default (a trailing
 * checksum in aws-chunked framing) is stored verbatim inside the object by servers that do not know it.
 */
export function createS3Store(options: S3Options): ObjectStore {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
  });
  const Key = (key: string) => `${options.prefix ?? ''}${key}`;
  const Bucket = options.bucket;
  const exists = (key: string) =>
    client.send(new HeadObjectCommand({ Bucket, Key: Key(key) })).then(
      () => true,
      () => false,
    );
  return {
    kind: 's3',
    async put(key, data, contentType) {
      if (await exists(key)) {
        if (!Buffer.isBuffer(data)) await unlink(data.file);
        return;
      }
      if (Buffer.isBuffer(data)) {
        await client.send(new PutObjectCommand({ Bucket, Key: Key(key), Body: data, ContentType: contentType }));
        return;
      }
      const Body = createReadStream(data.file);
      try {
        await client.send(
          new PutObjectCommand({ Bucket, Key: Key(key), Body, ContentLength: data.bytes, ContentType: contentType }),
        );
      } finally {
        await unlink(data.file);
      }
    },
    async get(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: Key(key) }));
      if (!answer.Body) throw new Error(`empty object ${key}`);
      return answer.Body as Readable;
    },
  };
}
