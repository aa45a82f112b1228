import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
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

type Sdk = typeof import('@aws-sdk/client-s3');

/**
 * The SDK loads on first use: most installs keep files on local disk, and loading it costs start-up
 * time (and prints its Node support notice) for nothing there.
 */
export function lazyClient(options: S3Options): () => Promise<{ sdk: Sdk; client: InstanceType<Sdk['S3Client']> }> {
  let made: Promise<{ sdk: Sdk; client: InstanceType<Sdk['S3Client']> }> | null = null;
  return () => {
    made ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: options.endpoint,
        region: options.region,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      }),
    }));
    return made;
  };
}

/**
 * S3-compatible storage (S3_* settings). Path-style addressing works with MinIO, Ceph and small test
 * servers; checksums only when an operation requires them, since the SDK's default (a trailing
 * checksum in aws-chunked framing) is stored verbatim inside the object by servers that do not know it.
 */
export function createS3Store(options: S3Options): ObjectStore {
  const connect = lazyClient(options);
  const Key = (key: string) => `${options.prefix ?? ''}${key}`;
  const Bucket = options.bucket;
  const exists = async (key: string) => {
    const { sdk, client } = await connect();
    return client.send(new sdk.HeadObjectCommand({ Bucket, Key: Key(key) })).then(
      () => true,
      () => false,
    );
  };
  return {
    kind: 's3',
    async put(key, data, contentType) {
      if (await exists(key)) {
        if (!Buffer.isBuffer(data)) await unlink(data.file);
        return;
      }
      const { sdk, client } = await connect();
      if (Buffer.isBuffer(data)) {
        await client.send(new sdk.PutObjectCommand({ Bucket, Key: Key(key), Body: data, ContentType: contentType }));
        return;
      }
      const Body = createReadStream(data.file);
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket,
            Key: Key(key),
            Body,
            ContentLength: data.bytes,
            ContentType: contentType,
          }),
        );
      } finally {
        await unlink(data.file);
      }
    },
    async get(key) {
      const { sdk, client } = await connect();
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: Key(key) }));
      if (!answer.Body) throw new Error(`empty object ${key}`);
      return answer.Body as Readable;
    },
  };
}
