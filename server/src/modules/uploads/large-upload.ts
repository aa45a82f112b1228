import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

const MiB = 1024 * 1024;

/** V8's full collector, without starting Node with --expose-gc (vitest workers are not). */
function minorGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;
  return () => gc({ type: 'minor', execution: 'sync' });
}

/**
 * Bytes of Buffers and other ArrayBuffers still reachable: a young-generation collection first frees
 * the socket reads already consumed (a file held by the server would stay).
 */
function liveBytes(gc: () => void): number {
  gc();
  return process.memoryUsage().arrayBuffers;
}

/**
 * Sends one file of `bytes` bytes as multipart over real HTTP, generated chunk by chunk (the sender
 * holds 1 MiB at a time), and samples the server process's memory meanwhile. Used by the upload test
 * and by `npm run bench:support`; the server must run in this process for the figures to mean anything.
 * `rssGrowthBytes` is what the machine sees, garbage included (its size depends on the V8 version's
 * young-generation sizing: ~30 MiB on Node 20, ~50 MiB on Node 24). `liveGrowthBytes` samples what is
 * still reachable after a full collection: a server that buffered the file would hold all of it.
 */
export async function sendLargeUpload(options: {
  url: string;
  cookie: string;
  bytes: number;
  name?: string;
}): Promise<{ status: number; body: string; rssGrowthBytes: number; liveGrowthBytes: number }> {
  const boundary = 'cwlargeupload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.name ?? 'big.zip'}"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // A zip's magic number first, so the part is a plausible file and only its size is wrong.
  const chunk = Buffer.alloc(MiB, 7);
  chunk.write('PK\u0003\u0004', 0, 'latin1');
  const gc = minorGc();
  const idleLive = liveBytes(gc);
  const idle = process.memoryUsage().rss;
  let peak = idle;
  let peakLive = idleLive;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  // A young-generation collection costs a millisecond or two: sampled less often than the RSS.
  const liveSampler = setInterval(() => {
    peakLive = Math.max(peakLive, liveBytes(gc));
  }, 100);
  try {
    return await new Promise((resolve, reject) => {
      const request = http.request(options.url, {
        method: 'POST',
        headers: {
          cookie: options.cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (d: Buffer) => {
          body += d.toString();
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            rssGrowthBytes: peak - idle,
            liveGrowthBytes: peakLive - idleLive,
          }),
        );
      });
      request.on('error', reject);
      void (async () => {
        request.write(head);
        let left = options.bytes;
        while (left > 0) {
          // The same MiB again and again: the sender allocates nothing per chunk.
          const piece = chunk.subarray(0, Math.min(chunk.length, left));
          left -= piece.length;
          if (!request.write(piece)) await new Promise((r) => request.once('drain', r));
          if (request.destroyed) return;
        }
        request.end(tail);
      })().catch(reject);
    });
  } finally {
    clearInterval(sampler);
    clearInterval(liveSampler);
  }
}
