/**
 * npm run bench:deposit — deposit credit latency on a real anvil and the embedded PostgreSQL:
 * the time from the block that completes a deposit's confirmations being mined to the ledger
 * credit committed by the running watcher loop, woken by the node's new heads over WebSocket as in the
 * server (BENCH_PUSH=0: polling alone, every WATCHER_POLL_MS, default 250 ms). Prints figure lines like every bench, `{"figure":"deposit_credit_latency_ms","value":<median>,
 * "unit":"ms"}` and the p95 (samples and max go to stderr).
 *
 * Each sample: send 0.01 ETH to a deposit address, mine until one confirmation is missing, wait
 * until the watcher has seen it, then mine the last block (t0 = just before anvil_mine) and wait
 * for the watcher's tick that credits it (t1 = when that tick's credit transaction has committed).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import { parseEther } from 'viem';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { loadChainConfig } from '../src/modules/chain/chain-config.ts';
import { accountXpubFromSeed } from '../src/modules/chain/derive.ts';
import { createEvmWatcher } from '../src/modules/chain/evm-watcher.ts';
import { wsHeads } from '../src/modules/chain/head-subscriber.ts';
import { DEV_ACCOUNT, devClient, startLocalChains } from '../src/modules/chain/local-chains.ts';
import { startWatchers } from '../src/modules/chain/runner.ts';
import type { TickReport } from '../src/modules/chain/watcher.ts';
import { depositAddressFor } from '../src/modules/deposits/addresses.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const POLL_MS = Number(process.env.WATCHER_POLL_MS ?? 250);
/** BENCH_PUSH=0 measures polling alone (the figure before deposits on push). */
const PUSH = process.env.BENCH_PUSH !== '0';
const log = (msg: string) => process.stderr.write(`${msg}\n`);

// Public BIP39 test mnemonic: a bench needs addresses, never keys of value.
const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);

const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-deposit-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral: true, log });
const chains = await startLocalChains({ dataDir: dir, networks: ['ethereum'], hotWallets: {} });
let exitCode = 0;
try {
  await pg.ensureDatabase('bench');
  const db = createDb(pg.url('bench'), { max: 5 });
  await migrateToLatest(db);
  const runtime = loadChainConfig(dir, {}).ethereum;
  if (!runtime) throw new Error('no local chain');
  const client = devClient(runtime.rpcUrl, runtime.chainId);

  let onReport: ((r: TickReport) => void) | undefined;
  const runner = startWatchers([createEvmWatcher({ db, runtime, startBlock: 0n })], {
    pollMs: POLL_MS,
    // As the server runs it: woken by the node's new heads (WebSocket), the poll as the fallback.
    ...(PUSH ? { heads: () => wsHeads({ url: runtime.wsUrl ?? '' }) } : {}),
    onTick: (r) => onReport?.(r),
    onError: (_n, err) => log(`tick failed: ${String(err)}`),
  });
  const nextReport = (pred: (r: TickReport) => boolean) =>
    new Promise<number>((resolve) => {
      onReport = (r) => {
        if (pred(r)) {
          onReport = undefined;
          resolve(performance.now());
        }
      };
    });

  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const { id: userId } = await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as `0x${string}`;
    const hash = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: address,
      value: parseEther('0.01'),
      chain: null,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    await client.mine({ blocks: runtime.confirmations - 2 });
    const missingOne = receipt.blockNumber + BigInt(runtime.confirmations) - 2n;
    await nextReport((r) => r.scannedTo !== null && r.scannedTo >= missingOne);
    const credited = nextReport((r) => r.credited > 0);
    const t0 = performance.now();
    await client.mine({ blocks: 1 });
    const t1 = await credited;
    samples.push(t1 - t0);
  }
  await runner.stop();
  const credits = await db
    .selectFrom('deposits')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('state', '=', 'successful')
    .executeTakeFirstOrThrow();
  if (Number(credits.n) !== SAMPLES) throw new Error(`expected ${SAMPLES} credited deposits, found ${credits.n}`);
  await db.destroy();
  samples.sort((a, b) => a - b);
  const pick = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0);
  log(`samples=${samples.length} poll_ms=${POLL_MS} p50=${pick(0.5)} p95=${pick(0.95)} max=${pick(1)}`);
  const figure = (name: string, value: number, note: string) =>
    process.stdout.write(`${JSON.stringify({ figure: name, value, unit: 'ms', note })}\n`);
  figure(
    'deposit_credit_latency_ms',
    pick(0.5),
    `median of ${samples.length}, ${PUSH ? 'new heads pushed over WebSocket, ' : ''}watcher poll ${POLL_MS} ms`,
  );
  figure(
    'deposit_credit_latency_p95_ms',
    pick(0.95),
    `p95 of ${samples.length}, ${PUSH ? 'new heads pushed over WebSocket, ' : ''}watcher poll ${POLL_MS} ms`,
  );
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await chains.stop();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exit(exitCode);
