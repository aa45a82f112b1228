import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { createS3Store } from './s3-store.ts';
import type { ObjectStore } from './storage.ts';
import { multipart, png } from './test-helpers.ts';

/** A real S3-compatible server (s3rver) on loopback, with one bucket. */
const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-s3rver-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: dir,
  configureBuckets: [{ name: 'cw-uploads', configs: [] }],
});
let endpoint = '';
beforeAll(async () => {
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server.close();
});

const storeOptions = () => ({
  endpoint,
  region: 'us-east-1',
  bucket: 'cw-uploads',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  prefix: 'uploads/',
});

// The server's port is known only once it runs: the store is made on first use.
let store: ObjectStore | null = null;
const bucketStore = () => {
  store ??= createS3Store(storeOptions());
  return store;
};
const h = useAuthHarness({
  uploads: {
    store: { kind: 's3', put: (...args) => bucketStore().put(...args), get: (key) => bucketStore().get(key) },
    tmpDir: path.join(dir, 'tmp'),
  },
});

describe('S3-compatible storage', () => {
  it('stores an object byte for byte (no aws-chunked framing inside) and reads it back', async () => {
    const store = createS3Store(storeOptions());
    const key = 'a'.repeat(64);
    await store.put(key, Buffer.from('hello, bucket'), 'text/plain');
    expect(await text(await store.get(key))).toBe('hello, bucket');
  });

  it('an upload through the API lands in the bucket and is served from it', async () => {
    const { cookie } = await registerUser(h);
    const body = multipart('pixel.png', await png(8, 8));
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/uploads?place=ticket',
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const got = await h.app.inject({ method: 'GET', url: res.json().url, headers: { cookie } });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });
});
