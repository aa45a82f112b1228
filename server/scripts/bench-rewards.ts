/**
 * npm run bench:rewards — the rewards programme on the embedded PostgreSQL and a real anvil:
 * 1. Check-in credit latency: a `checkIn` transaction mined on a chain making a block a second, to
 *    the confirmed sign record written by the running watcher loop (1 confirmation, the server's
 *    250 ms poll). t0: the receipt is seen (polled every 20 ms), t1: the record is confirmed.
 * 2. Lottery draws per second: 200 users drawing at once (each 6 tries, 5 allowed), through the
 *    service's draw (allowance check, draw row and prize posting in one transaction).
 * Then: no user drew more than allowed, and the ledger reconciles.
 * Figures as JSON lines: checkin_credit_p50_ms, checkin_credit_p99_ms, draws_per_s.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { encodeFunctionData, type Hex, parseAbi, parseEther } from 'viem';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/schema.ts';
import { loadChainConfig } from '../src/modules/chain/chain-config.ts';
import { createEvmWatcher } from '../src/modules/chain/evm-watcher.ts';
import { devClient, startLocalChains } from '../src/modules/chain/local-chains.ts';
import { startWatchers } from '../src/modules/chain/runner.ts';
import { reconcile } from '../src/modules/ledger/reconcile.ts';
import { checkInObserver } from '../src/modules/rewards/check-in-observer.ts';
import { utcDay } from '../src/modules/rewards/days.ts';
import { NoMoreDrawsError } from '../src/modules/rewards/errors.ts';
import { draw, prizeTableHashOf } from '../src/modules/rewards/lottery.ts';
import { nextCommitmentOf, setClientSeed } from '../src/modules/rewards/lottery-seeds.ts';
import { rewardsConfigFromEnv } from '../src/modules/rewards/rewards-config.ts';
import { seedRewardsPool } from '../src/modules/rewards/rewards-module.ts';
import { memberTagOf } from '../src/modules/rewards/sign-repository.ts';

const CHECKINS = Number(process.env.BENCH_CHECKINS ?? 30);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const DRAWS_ALLOWED = 5;
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const figure = (name: string, value: number, unit: string) =>
  console.log(JSON.stringify({ figure: name, value: Math.round(value * 10) / 10, unit }));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function newUser(db: Kysely<Database>): Promise<string> {
  return (await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow()).id;
}

async function checkInLatency(db: Kysely<Database>, dir: string): Promise<number[]> {
  const config = rewardsConfigFromEnv({ CHECKIN_CONFIRMATIONS: '1' });
  const runtime = loadChainConfig(dir, {}).ethereum;
  if (!runtime?.checkInContract) throw new Error('no check-in contract on the local chain');
  const contract = runtime.checkInContract;
  const client = devClient(runtime.rpcUrl, runtime.chainId);
  const runner = startWatchers(
    [
      createEvmWatcher({
        db,
        runtime,
        startBlock: 0n,
        observers: [checkInObserver({ network: 'ethereum', contract, config })],
      }),
    ],
    { pollMs: 250, onError: (_n, err) => log(`tick failed: ${String(err)}`) },
  );
  const samples: number[] = [];
  try {
    for (let i = 0; i < CHECKINS; i++) {
      const userId = await newUser(db);
      const tag = (await memberTagOf(db, userId, () => `0x${randomBytes(32).toString('hex')}`, new Date())) as Hex;
      // A fresh wallet per check-in (one a day per address), impersonated on anvil.
      const wallet = `0x${randomBytes(20).toString('hex')}` as Hex;
      await client.impersonateAccount({ address: wallet });
      await client.setBalance({ address: wallet, value: parseEther('1') });
      const data = encodeFunctionData({
        abi: parseAbi(['function checkIn(bytes32 memberTag)']),
        functionName: 'checkIn',
        args: [tag],
      });
      const hash = await client.wallet.sendTransaction({ account: wallet, to: contract, data, chain: null });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      const t0 = performance.now();
      if (receipt.status !== 'success') throw new Error('check-in reverted');
      for (;;) {
        const row = await db
          .selectFrom('sign_records')
          .select('state')
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (row?.state === 'confirmed') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      samples.push(performance.now() - t0);
    }
  } finally {
    await runner.stop();
  }
  return samples.sort((a, b) => a - b);
}

async function drawThroughput(db: Kysely<Database>): Promise<{ perSecond: number; exceeded: number }> {
  const config = rewardsConfigFromEnv({
    LIKES_PER_DRAW: '1',
    DRAWS_PER_DAY: String(DRAWS_ALLOWED),
    REWARDS_SEED_POOL: '1000000',
  });
  await seedRewardsPool(db, config, new Date());
  const at = new Date();
  const day = utcDay(at);
  const posts: string[] = [];
  for (let i = 0; i < DRAWS_ALLOWED; i++) {
    const { id } = await db
      .insertInto('announcements')
      .values({
        category: 'news',
        pinned: false,
        publish_at: at,
        expire_at: null,
        withdrawn_at: null,
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    posts.push(id);
  }
  const users: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const userId = await newUser(db);
    // Each user's client seed, set against the commitment shown first (issue 36 item 15).
    const commitment = await nextCommitmentOf(db, userId, at);
    await setClientSeed(db, {
      userId,
      clientSeed: `bench-${i}`,
      commitment,
      prizeTableHash: prizeTableHashOf(config.prizes),
      at,
    });
    users.push(userId);
  }
  await db
    .insertInto('announcement_likes')
    .values(
      users.flatMap((user_id) => posts.map((announcement_id) => ({ user_id, announcement_id, day, created_at: at }))),
    )
    .execute();
  let made = 0;
  const started = performance.now();
  await Promise.all(
    users.map(async (userId) => {
      for (let n = 0; n <= DRAWS_ALLOWED; n++) {
        try {
          await draw(db, { userId, config, at });
          made++;
        } catch (err) {
          if (!(err instanceof NoMoreDrawsError)) throw err;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const over = await db
    .selectFrom('lottery_draws')
    .select(['user_id', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('user_id')
    .execute();
  const exceeded = over.filter((r) => Number(r.n) > DRAWS_ALLOWED).length;
  if (made !== USERS * DRAWS_ALLOWED) throw new Error(`expected ${USERS * DRAWS_ALLOWED} draws, made ${made}`);
  return { perSecond: made / seconds, exceeded };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-rewards-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral: true, log });
const chains = await startLocalChains({ dataDir: dir, networks: ['ethereum'], hotWallets: {}, blockTimeS: 1 });
let exitCode = 0;
try {
  await pg.ensureDatabase('bench');
  const db = createDb(pg.url('bench'), { max: 20 });
  await migrateToLatest(db);
  const latency = await checkInLatency(db, dir);
  log(
    `check-ins=${latency.length} p50=${quantile(latency, 0.5).toFixed(0)} p99=${quantile(latency, 0.99).toFixed(0)} max=${latency.at(-1)?.toFixed(0)}`,
  );
  figure('checkin_credit_p50_ms', quantile(latency, 0.5), 'ms');
  figure('checkin_credit_p99_ms', quantile(latency, 0.99), 'ms');
  const draws = await drawThroughput(db);
  figure('draws_per_s', draws.perSecond, 'draws/s');
  figure('draws_allowance_exceeded', draws.exceeded, 'users');
  const books = await reconcile(db);
  figure('rewards_books_reconciled', books.ok ? 1 : 0, 'bool');
  if (!books.ok || draws.exceeded > 0) throw new Error('rewards bench: allowance exceeded or books do not reconcile');
  await db.destroy();
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await chains.stop();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exit(exitCode);
