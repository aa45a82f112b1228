import { createReadStream } from 'node:fs';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where upload objects live: content-addressed (the key is the sha-256 of the bytes), written once,
 * never served straight from a web root; the uploads handler streams them after checking the reader.
 */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Stores `data` (a buffer, or the path of a finished file) under `key`, unless it is there already. */
  put(key: string, data: Buffer | { file: string; bytes: number }, contentType: string): Promise<void>;
  /** The object's bytes; throws when it is missing. */
  get(key: string): Promise<Readable>;
}

/** `DATA_DIR/uploads` by default: objects under objects/ab/cd/<sha256>, written through a rename. */
export function createLocalStore(dir: string): ObjectStore {
  const fileOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not an object key: ${key}`);
    return path.join(dir, 'objects', key.slice(0, 2), key.slice(2, 4), key);
  };
  return {
    kind: 'local',
    async put(key, data) {
      const target = fileOf(key);
      const exists = await access(target).then(
        () => true,
        () => false,
      );
      if (exists) return;
      await mkdir(path.dirname(target), { recursive: true });
      if (Buffer.isBuffer(data)) {
        const partial = `${target}.${process.pid}.${Date.now()}.part`;
        await writeFile(partial, data);
        await rename(partial, target);
      } else {
        await rename(data.file, target);
      }
    },
    async get(key) {
      const stream = createReadStream(fileOf(key));
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return stream;
    },
  };
}
