import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { createDb } from '../../server/src/db/create-db.ts';
import { freePort } from '../../server/src/db/embedded-postgres.ts';
import type { Database } from '../../server/src/db/schema.ts';
import { extractCode, type SmtpSink, startSmtpSink } from '../../server/src/modules/mail/smtp-sink.ts';
import { type Cluster, startCluster } from './cluster.ts';
import { DrillClient, type DrillStats, newStats, payDeposits } from './drill.ts';
import { ensureNginx } from './ensure-servers.ts';
import { REMOTE_NAMES, ROOT } from './paths.ts';

/**
 * The kill drill's parts, shared by its test (scripts/kill-drill.test.ts) and bench:scale: a cluster
 * behind nginx with a real SMTP server, registered clients with on-chain deposits, a mixed workload
 * (conversions, sign-ins, withdrawals), the lease holders to kill, and the count of duplicated or
 * lost effects afterwards.
 */
export const ETH_CONFIRMATIONS = 12;
const CONVERT_MINOR = '1000000000000000'; // 0.001 ETH
const WITHDRAW_MINOR = '100000000000000000'; // 0.1 ETH

export interface Drill {
  cluster: Cluster;
  db: Kysely<Database>;
  sink: SmtpSink;
  dataDir: string;
  stats: DrillStats;
  clients: DrillClient[];
  /** Deposit transactions paid to the clients, each to be credited once. */
  deposits: `0x${string}`[];
  /** Quotes accepted as converted, each to exist once. */
  converted: string[];
  withdrawals: { id: string; to: Address; arrivalMinor: string }[];
  stop(): Promise<void>;
}

export async function startDrill(options: { instances: number; clients: number; tag: string }): Promise<Drill> {
  ensureNginx();
  await mkdir(path.join(ROOT, '.test-runs'), { recursive: true });
  // Under the repository, not a 0700 /tmp folder: PostgreSQL runs as its own user when we are root.
  const workDir = await mkdtemp(path.join(ROOT, '.test-runs', `${options.tag}-`));
  await chmod(workDir, 0o755);
  const staticDir = path.join(workDir, 'deploy');
  await mkdir(path.join(staticDir, 'host'), { recursive: true });
  await writeFile(path.join(staticDir, 'host', 'index.html'), '<!doctype html><title>t</title>');
  const remotes = Object.fromEntries(
    REMOTE_NAMES.map((n) => [n, { version: 't', manifest: `/r/${n}.json`, routes: [] }]),
  );
  await writeFile(path.join(staticDir, 'remotes.json'), JSON.stringify({ remotes }));
  const dataDir = path.join(workDir, 'data');
  const sink = await startSmtpSink();
  const cluster = await startCluster({
    instances: options.instances,
    host: '127.0.0.1',
    port: await freePort(),
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'warn',
      // Real SMTP: every e-mail (the codes) goes through the instances' outbox workers to this server.
      SMTP_URL: sink.url,
      DEV_MAILBOX: 'false',
      // No operator console here (its nginx server would take the default OPS_PORT on a shared machine).
      OPS_PORT: 'off',
      RATE_LIMIT_MAX: '1000000',
      CODE_IP_HOURLY_LIMIT: '100000',
      ANVIL_BLOCK_TIME_S: '0',
      // Blocks are mined only per transaction here, so a withdrawal's later confirmations may never come:
      // the signer settles on the first (the confirmation rule itself is tested in signer.confirmations).
      SIGNER_SETTLE_CONFIRMATIONS: '1',
      WITHDRAW_AUTO_REVIEW_LIMITS: 'ETH=100',
      // Sweeps every 2 s, so deposit sweeps run (and get killed) alongside the withdrawals.
      SIGNER_SWEEP_INTERVAL_MS: '2000',
    },
    log: () => undefined,
    onLine: () => undefined,
  }).catch(async (err) => {
    await sink.close();
    throw err;
  });
  const db = createDb(cluster.databaseUrl, { max: 2 });
  const stats = newStats();
  // The newest code among the distinct messages to the address after the first `after` (a message sent
  // again after a crash keeps its Message-ID). Notices without a code are skipped, and where a retried
  // request mailed two codes, the newer one is the valid one.
  const codes = async (email: string, after: number): Promise<{ code: string; seen: number }> => {
    for (let i = 0; i < 300; i++) {
      const seen = new Map<string, string>();
      for (const m of sink.messages) {
        if (!m.to.includes(email)) continue;
        const id = /^Message-ID: (\S+)/im.exec(m.raw)?.[1] ?? `#${seen.size}`;
        if (!seen.has(id)) seen.set(id, m.raw);
      }
      const fresh = [...seen.values()]
        .slice(after)
        .map(extractCode)
        .filter((c) => c !== undefined);
      const code = fresh.at(-1);
      if (code) return { code, seen: seen.size };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no code e-mailed to ${email} after message ${after}`);
  };
  const clients = Array.from(
    { length: options.clients },
    (_, i) => new DrillClient(cluster.url, `${options.tag.replace(/[^a-z0-9]/gi, '').slice(0, 5)}${i}`, stats, codes),
  );
  return {
    cluster,
    db,
    sink,
    dataDir,
    stats,
    clients,
    deposits: [],
    converted: [],
    withdrawals: [],
    async stop() {
      await db.destroy();
      await cluster.stop();
      await sink.close();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Registers every client and pays each an on-chain deposit of `ether`; resolves once all are credited. */
export async function fundClients(drill: Drill, ether: string): Promise<void> {
  const before = await successfulDeposits(drill.db);
  const addresses = await Promise.all(drill.clients.map((c) => c.depositAddress()));
  drill.deposits.push(...(await payDeposits(drill.dataDir, addresses, ether, ETH_CONFIRMATIONS)));
  await waitUntil('deposits credited', async () => (await successfulDeposits(drill.db)) >= before + addresses.length);
}

export const successfulDeposits = async (db: Kysely<Database>) =>
  (await sql<{ n: number }>`select count(*)::int as n from deposits where state = 'successful'`.execute(db)).rows[0]
    ?.n ?? 0;

/** Every client converts in a loop and signs in again now and then, until the returned stop. */
export function startWork(drill: Drill): { ops: () => number; stop(): Promise<void> } {
  let running = true;
  let ops = 0;
  const done = Promise.all(
    drill.clients.map(async (c, i) => {
      for (let n = 0; running; n++) {
        if ((n + i) % 7 === 0) {
          await c.login();
          ops += 1;
        }
        const quoteId = await c.convert(CONVERT_MINOR);
        ops += 2; // quote and accept
        if (quoteId) drill.converted.push(quoteId);
      }
    }),
  );
  return {
    ops: () => ops,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Every client whose index has `parity` sets its fund password if needed and withdraws 0.1 ETH to a fresh address. */
export async function withdrawHalf(drill: Drill, parity: 0 | 1, round: number): Promise<void> {
  await Promise.all(
    drill.clients.map(async (c, i) => {
      if (i % 2 !== parity) return;
      if (round === 1) await c.setFundPassword();
      const to = privateKeyToAddress(generatePrivateKey());
      const w = await c.withdraw(to, WITHDRAW_MINOR, `drill-${round}-${i}`);
      drill.withdrawals.push({ id: w.id, to, arrivalMinor: w.arrivalMinor });
    }),
  );
}

/**
 * The kills, under the caller's workload: a follower instance; then the background leader, with a
 * second deposit per client sent right after (the successor's to credit); then the signer holding the
 * hot wallet's lease (SIGKILL: no hand-over), with half the clients withdrawing before and half after.
 * Resolves once every withdrawal is paid.
 */
export async function killFollowerLeaderAndSigner(
  drill: Drill,
): Promise<{ takeoverMs: number; creditedAfter: number }> {
  const { db, cluster } = drill;
  const firstWithdrawals = withdrawHalf(drill, 0, 1);
  const leader = await holderOf(db, 'background');
  cluster.instances.find((i) => i.child.pid !== pidOf(leader))?.child.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 3_000));
  const leaderInstance = cluster.instances.find((i) => i.child.pid === pidOf(leader));
  if (!leaderInstance) throw new Error(`no instance holds the background lease (${leader})`);
  const killedAt = Date.now();
  leaderInstance.child.kill('SIGKILL');
  const credited = await successfulDeposits(db);
  const second = fundClients(drill, '0.5');
  await waitUntil(
    'another instance leads',
    async () => ![null, leader].includes(await holderOf(db, 'background')),
    30_000,
    20,
  );
  const takeoverMs = Date.now() - killedAt;
  await second;
  const creditedAfter = (await successfulDeposits(db)) - credited;
  await firstWithdrawals;
  // (The leader's own signer stopped with it: wait for the one leading now, on a survivor.)
  let signerPid = 0;
  await waitUntil('a live signer leads', async () => {
    signerPid = pidOf(await holderOf(db, 'signer'));
    return alive(signerPid);
  });
  process.kill(signerPid, 'SIGKILL');
  await withdrawHalf(drill, 1, 2);
  const ids = drill.withdrawals.map((w) => w.id);
  await waitUntil(
    'every withdrawal paid',
    async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from withdrawals
        where id = any(${ids}::uuid[]) and state = 'transfer_successful'`.execute(db);
      return rows[0]?.n === ids.length;
    },
    180_000,
  );
  return { takeoverMs, creditedAfter };
}

export const holderOf = async (db: Kysely<Database>, role: string): Promise<string | null> =>
  (
    await sql<{ holder: string }>`
      select holder from leases where role = ${role} and expires_at > clock_timestamp()`.execute(db)
  ).rows[0]?.holder ?? null;

/** The pid in a lease holder's name (host:pid:random). */
export const pidOf = (holder: string | null): number => Number(holder?.split(':')[1] ?? 0);

/** Whether `pid` names a live process (0 and below never do: they would name process groups). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 90_000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
