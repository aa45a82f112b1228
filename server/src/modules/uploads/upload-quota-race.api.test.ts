import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { createLocalStore } from './storage.ts';
import { multipart } from './test-helpers.ts';

/**
 * Issue 38 item 8 (part): the quota was checked before reading and again after, with no lock, so
 * concurrent uploads all passed both checks. The last check and the insert now hold a per-uploader lock.
 */
const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-uploads-race-'));
const h = useAuthHarness({
  uploads: { store: createLocalStore(dir), tmpDir: path.join(dir, 'tmp'), quotaBytes: 3 * 1024 * 1024 },
});

describe('the upload quota under concurrent uploads', () => {
  it('6 concurrent ~1.2 MB files against a 3 MiB quota: at most 2 are kept', async () => {
    const { cookie } = await registerUser(h);
    // Noise does not compress: ~1.2 MB a picture, each a different one (content-addressed objects).
    const noisy = () =>
      sharp(Buffer.from(Array.from({ length: 640 * 640 * 3 }, () => Math.floor(Math.random() * 256))), {
        raw: { width: 640, height: 640, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
    const files = await Promise.all(Array.from({ length: 6 }, noisy));
    const answers = await Promise.all(
      files.map((bytes, i) => {
        const body = multipart(`noise${i}.png`, bytes);
        return h.app.inject({
          method: 'POST',
          url: '/api/uploads?place=ticket',
          headers: { ...body.headers, cookie },
          payload: body.payload,
        });
      }),
    );
    const kept = answers.filter((r) => r.statusCode === 201).length;
    expect(kept).toBeLessThanOrEqual(2);
    expect(answers.filter((r) => r.json().code === 'STORAGE_QUOTA_EXCEEDED').length).toBe(6 - kept);
  }, 120_000);
});
