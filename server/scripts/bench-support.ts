/**
 * Support benchmark: `npm run bench:support` (root).
 *
 * An embedded PostgreSQL and the API in this process (so its memory is this process's). 500 users
 * (BENCH_CHAT_CLIENTS) hold a live chat stream each, an operator holds the operators' stream, and the
 * operator answers every conversation BENCH_ROUNDS times (20 answers in flight). Delivery latency is
 * from the operator's POST to the event arriving at the user's stream: through the database, NOTIFY,
 * the listener, the catch-up query and the socket. Then one 50 MB file is uploaded to a chat while
 * the resident memory is sampled: streaming keeps the growth flat, buffering would not.
 *   {"figure":"chat_delivery_p50_ms","value":N,"unit":"ms"}
 *   {"figure":"chat_delivery_p99_ms","value":N,"unit":"ms"}   (target <= 50 ms)
 *   {"figure":"upload_50mb_rss_growth_mb","value":N,"unit":"MB"}   (target <= 64 MB)
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { startConsoleListener } from '../src/http/console-listener.ts';
import { createSessions } from '../src/modules/auth/sessions.ts';
import { openEventStream } from '../src/modules/chat/sse-client.ts';
import { createOperatorAccounts } from '../src/modules/operators/accounts-service.ts';
import { totpCode } from '../src/modules/security/totp.ts';
import { sendLargeUpload } from '../src/modules/uploads/large-upload.ts';
import { createLocalStore } from '../src/modules/uploads/storage.ts';

const clients = Number(process.env.BENCH_CHAT_CLIENTS ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
/** Answers in flight at once: one operator console sends one message at a time. */
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 1);
const MiB = 1024 * 1024;

const log = (msg: string) => process.stderr.write(`[bench:support] ${msg}\n`);
const figure = (name: string, value: number, unit: string) =>
  process.stdout.write(`${JSON.stringify({ figure: name, value: Math.round(value * 100) / 100, unit })}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-support-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral: true, log });
await pg.ensureDatabase('bench');
const url = pg.url('bench');
const db = createDb(url, { max: 20 });
await migrateToLatest(db);
const app = buildApp({
  db,
  rateLimit: { max: 1_000_000, windowMs: 60_000 },
  notifications: { databaseUrl: url },
  uploads: { store: createLocalStore(path.join(dir, 'uploads')), tmpDir: path.join(dir, 'uploads', 'tmp') },
  mail: { smtpUrl: null, worker: false },
});
let opsConsole: Awaited<ReturnType<typeof startConsoleListener>> | undefined;
try {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The operator API answers on the console's own listener only (issue 38 item 5); no Origin header is sent
  // (a script, not a browser page), which the console's origin check lets through.
  opsConsole = await startConsoleListener(app, { host: '127.0.0.1', port: 0 });
  const opsBase = opsConsole.url;

  // Users with a session each (made directly: signing 500 users in would measure argon2, not chat).
  const sessions = createSessions({ db, now: () => new Date() });
  const cookies: string[] = [];
  for (let i = 0; i < clients; i++) {
    const now = new Date();
    const { id } = await db.insertInto('users').values({ created_at: now }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('accounts')
      .values({
        user_id: id,
        username: `chat_${i}`,
        email: `chat_${i}@example.com`,
        nickname: null,
        country: 'CN',
        password_hash: 'x',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const { token } = await sessions.start(db, id, { ip: '127.0.0.1', userAgent: 'bench' });
    cookies.push(`sid=${token}`);
  }
  // An operator enrolled as the console does it: the CLI's link, then the password and a first code.
  const { token } = await createOperatorAccounts({ db, now: () => new Date() }).add({ kind: 'cli' }, 'bench_ops', [
    'support',
  ]);
  const post = (url: string, body: object) =>
    fetch(`${opsBase}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const { secret } = (await (await post('/api/ops/enrolment/start', { token })).json()) as { secret: string };
  const signIn = await post('/api/ops/enrolment/finish', {
    token,
    password: 'Bench-Ops-2030!',
    totpCode: totpCode(secret, new Date()),
  });
  const ops = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  log(`${clients} users and an operator ready`);

  // Every user connected; the waiting map resolves a latency when the stamped message arrives.
  const waiting = new Map<string, (at: number) => void>();
  const streams = cookies.map((cookie) =>
    openEventStream({
      url: `${base}/api/chat/events`,
      cookie,
      onEvent: (event) => {
        if (event.event !== 'message') return;
        const { clientId } = JSON.parse(event.data) as { clientId: string };
        waiting.get(clientId)?.(performance.now());
      },
    }),
  );
  const opsStream = openEventStream({ url: `${opsBase}/api/ops/chat/events`, cookie: ops, onEvent: () => undefined });
  await Promise.all([...streams.map((s) => s.opened), opsStream.opened]);
  const conversations = (await db.selectFrom('chat_conversations').select('id').execute()).map((c) => c.id);
  log(`${streams.length} streams open on ${conversations.length} conversations`);

  const latencies: number[] = [];
  const answer = async (conversationId: string) => {
    const clientId = randomUUID();
    const started = performance.now();
    const arrived = new Promise<number>((resolve) => waiting.set(clientId, resolve));
    const res = await fetch(`${opsBase}/api/ops/chats/${conversationId}/messages`, {
      method: 'POST',
      headers: { cookie: ops, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId, text: 'How can we help?' }),
    });
    if (res.status !== 201) throw new Error(`answer failed: ${res.status} ${await res.text()}`);
    latencies.push((await arrived) - started);
    waiting.delete(clientId);
  };
  const queue = Array.from({ length: rounds }, () => conversations).flat();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await answer(next);
    }),
  );
  latencies.sort((a, b) => a - b);
  log(`${latencies.length} answers delivered`);
  figure('chat_delivery_p50_ms', percentile(latencies, 50), 'ms');
  figure('chat_delivery_p99_ms', percentile(latencies, 99), 'ms');

  for (const s of [...streams, opsStream]) s.close();
  await new Promise((r) => setTimeout(r, 500));
  const upload = await sendLargeUpload({
    url: `${base}/api/uploads?place=chat`,
    cookie: cookies[0] ?? '',
    bytes: 50 * MiB,
  });
  if (upload.status !== 201) throw new Error(`upload failed: ${upload.status} ${upload.body}`);
  figure('upload_50mb_rss_growth_mb', upload.rssGrowthBytes / MiB, 'MB');
  figure('upload_50mb_live_growth_mb', upload.liveGrowthBytes / MiB, 'MB');
} finally {
  await opsConsole?.close();
  await app.close();
  await db.destroy();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
