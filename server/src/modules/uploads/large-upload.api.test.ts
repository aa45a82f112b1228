import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { sendLargeUpload } from './large-upload.ts';

const h = useAuthHarness();
const MiB = 1024 * 1024;

describe('a 50 MB + 1 byte upload', () => {
  it('is cut off with 413 FILE_TOO_LARGE while the server memory stays flat (streamed, never buffered)', async () => {
    const { cookie } = await registerUser(h);
    const address = (await h.app.listen({ host: '127.0.0.1', port: 0 })) as unknown as string;
    const port = (h.app.server.address() as AddressInfo).port;
    expect(address).toContain('127.0.0.1');
    // Warm up first: the first large request pays for code loading.
    const url = `http://127.0.0.1:${port}/api/uploads`;
    const warm = await sendLargeUpload({ url: `${url}?place=ticket`, cookie, bytes: 5 * MiB + 1 });
    expect(warm.status).toBe(413);
    const result = await sendLargeUpload({
      url: `${url}?place=chat`,
      cookie,
      bytes: 50 * MiB + 1,
    });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ code: 'FILE_TOO_LARGE', details: { limit: 50 * MiB } });
    // Buffering would keep the whole 50 MiB reachable until the end; streaming keeps what is in flight
    // (the sender's MiB, socket queues: ~10 MiB measured).
    // (RSS is not the measure: it counts the garbage of those reads, whose amount depends on V8's
    // young-generation sizing — about 30 MiB on Node 20, 50 MiB on Node 24 — not on the server.)
    expect(result.liveGrowthBytes).toBeLessThan(32 * MiB);
  }, 60_000);
});
