import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../server/src/db/create-db.ts';
import { freePort } from '../server/src/db/embedded-postgres.ts';
import { readChainsFile } from '../server/src/modules/chain/chain-config.ts';
import { devClient } from '../server/src/modules/chain/local-chains.ts';
import { reconcile } from '../server/src/modules/ledger/reconcile.ts';
import { extractCode, type SmtpSink, startSmtpSink } from '../server/src/modules/mail/smtp-sink.ts';
import { type Cluster, startCluster } from './lib/cluster.ts';
import { DrillClient, newStats, payDeposits } from './lib/drill.ts';
import { ensureNginx } from './lib/ensure-nginx.ts';
import { REMOTE_NAMES, ROOT } from './lib/paths.ts';

/**
 * The kill drill (issue 15): three API instances behind nginx on one PostgreSQL, clients registering,
 * signing in (codes by e-mail over real SMTP), depositing on the local chain, converting and withdrawing, while one instance, then the
 * leader of the background roles, then the signer holding the hot wallet's lease are killed with
 * SIGKILL. Afterwards every request has succeeded (some after being sent again), every deposit is
 * credited exactly once (including those that arrived after the leader died), every conversion exists
 * once, every withdrawal is paid on chain exactly once, every e-mail is sent (none lost; a repeat keeps its Message-ID), and the
 * ledger reconciles. KILL_DRILL_CLIENTS sets the
 * number of clients (default 12 here; bench:scale runs 64).
 */
const CLIENTS = Number(process.env.KILL_DRILL_CLIENTS ?? 12);
const ETH_CONFIRMATIONS = 12;
const CONVERT_MINOR = '1000000000000000'; // 0.001 ETH
const WITHDRAW_MINOR = '100000000000000000'; // 0.1 ETH

let cluster: Cluster | undefined;
let smtp: SmtpSink | undefined;
let workDir = '';
afterAll(async () => {
  await cluster?.stop();
  await smtp?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function holderOf(db: ReturnType<typeof createDb>, role: string): Promise<string | null> {
  const { rows } = await sql<{ holder: string }>`
    select holder from leases where role = ${role} and expires_at > clock_timestamp()`.execute(db);
  return rows[0]?.holder ?? null;
}

describe('kill drill', () => {
  it('three instances behind nginx lose one instance and then the leader: nothing lost, nothing twice', async () => {
    ensureNginx();
    await mkdir(path.join(ROOT, '.test-runs'), { recursive: true });
    workDir = await mkdtemp(path.join(ROOT, '.test-runs', 'kill-drill-'));
    await chmod(workDir, 0o755);
    const staticDir = path.join(workDir, 'deploy');
    await mkdir(path.join(staticDir, 'host'), { recursive: true });
    await writeFile(path.join(staticDir, 'host', 'index.html'), '<!doctype html><title>t</title>');
    const remotes = Object.fromEntries(
      REMOTE_NAMES.map((n) => [n, { version: 't', manifest: `/r/${n}.json`, routes: [] }]),
    );
    await writeFile(path.join(staticDir, 'remotes.json'), JSON.stringify({ remotes }));
    const dataDir = path.join(workDir, 'data');
    smtp = await startSmtpSink();
    const sink = smtp;
    const pids: number[] = [];
    cluster = await startCluster({
      instances: 3,
      host: '127.0.0.1',
      port: await freePort(),
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        STATIC_DIR: staticDir,
        LOG_LEVEL: 'warn',
        // Real SMTP: every e-mail (the codes) goes through each instance's outbox worker to this server.
        SMTP_URL: smtp.url,
        DEV_MAILBOX: 'false',
        RATE_LIMIT_MAX: '1000000',
        CODE_IP_HOURLY_LIMIT: '100000',
        ANVIL_BLOCK_TIME_S: '0',
        WITHDRAW_AUTO_REVIEW_LIMITS: 'ETH=100',
      },
      log: () => undefined,
      onLine: () => undefined,
    });
    for (const i of cluster.instances) pids.push(i.child.pid ?? 0);
    const db = createDb(cluster.databaseUrl, { max: 2 });
    try {
      const stats = newStats();
      // A code is the newest message to the address received since the request was sent.
      const received: number[] = [];
      const stamp = setInterval(() => {
        while (received.length < sink.messages.length) received.push(Date.now());
      }, 20);
      const codes = async (email: string, since: number) => {
        for (let i = 0; i < 300; i++) {
          const mine = sink.messages.filter((m, n) => m.to.includes(email) && (received[n] ?? 0) >= since - 50);
          const code = mine.length > 0 ? extractCode(mine[mine.length - 1]?.raw ?? '') : undefined;
          if (code) return code;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`no code e-mailed to ${email}`);
      };
      const clients = Array.from(
        { length: CLIENTS },
        (_, i) => new DrillClient(cluster?.url ?? '', `drill${i}`, stats, codes),
      );
      await Promise.all(clients.map((c) => c.register()));
      const addresses = await Promise.all(clients.map((c) => c.depositAddress()));
      const firstDeposits = await payDeposits(dataDir, addresses, '1', ETH_CONFIRMATIONS);

      // Work while instances die: every client converts in a loop and signs in again now and then.
      let running = true;
      const converted: string[] = [];
      const work = Promise.all(
        clients.map(async (c, i) => {
          for (let n = 0; running; n++) {
            if ((n + i) % 7 === 0) await c.login();
            const quoteId = await c.convert(CONVERT_MINOR);
            if (quoteId) converted.push(quoteId);
          }
        }),
      );
      await expect
        .poll(
          async () =>
            (await sql<{ n: number }>`select count(*)::int as n from deposits where state = 'successful'`.execute(db))
              .rows[0]?.n,
          { timeout: 60_000 },
        )
        .toBe(CLIENTS);

      // Withdrawals in flight while instances die (auto-approved under WITHDRAW_AUTO_REVIEW_LIMITS).
      const withdrawals: { id: string; to: Address; arrivalMinor: string }[] = [];
      // Half the clients in each round: a user may ask for a withdraw code once a minute.
      const withdrawAll = (round: number) =>
        Promise.all(
          clients.map(async (c, i) => {
            if (i % 2 !== round - 1) return;
            const to = privateKeyToAddress(generatePrivateKey());
            const w = await c.withdraw(to, WITHDRAW_MINOR, `drill-${round}-${i}`);
            withdrawals.push({ id: w.id, to, arrivalMinor: w.arrivalMinor });
          }),
        );
      await Promise.all(clients.map((c) => c.setFundPassword()));
      const firstWithdrawals = withdrawAll(1);

      // 1. An instance that is not the leader dies.
      const leader = await holderOf(db, 'background');
      const victim = cluster.instances.find((i) => !leader?.includes(`:${i.child.pid}:`));
      victim?.child.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 3_000));

      // 2. The leader of the background roles dies; deposits arriving now are the successor's to credit.
      const leaderInstance = cluster.instances.find((i) => leader?.includes(`:${i.child.pid}:`));
      expect(leaderInstance).toBeDefined();
      const killedAt = Date.now();
      leaderInstance?.child.kill('SIGKILL');
      const secondDeposits = await payDeposits(dataDir, addresses, '0.5', ETH_CONFIRMATIONS);
      await expect
        .poll(
          async () => {
            const now = await holderOf(db, 'background');
            return now !== null && now !== leader;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
      const takeoverMs = Date.now() - killedAt;
      await firstWithdrawals;

      // 3. The signer that holds the hot wallet's lease dies (SIGKILL, no clean hand-over), with more
      //    withdrawals on their way.
      // (The leader's own signer stopped with it; wait for the signer leading now, on the survivor.)
      let signerPid = 0;
      await expect
        .poll(
          async () => {
            signerPid = Number((await holderOf(db, 'signer'))?.split(':')[1] ?? 0);
            return signerPid > 0 && alive(signerPid);
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(true);
      process.kill(signerPid, 'SIGKILL');
      await withdrawAll(2);
      await expect
        .poll(
          async () =>
            (await sql<{ n: number }>`select count(*)::int as n from deposits where state = 'successful'`.execute(db))
              .rows[0]?.n,
          { timeout: 60_000 },
        )
        .toBe(2 * CLIENTS);
      await expect
        .poll(
          async () =>
            (
              await sql<{ n: number }>`select count(*)::int as n from withdrawals
                where id = any(${withdrawals.map((w) => w.id)}::uuid[]) and state = 'transfer_successful'`.execute(db)
            ).rows[0]?.n,
          { timeout: 90_000 },
        )
        .toBe(CLIENTS);
      running = false;
      await work;
      // Each withdrawal paid once: every destination holds exactly what its one withdrawal promised.
      const chain = devClient(readChainsFile(dataDir).ethereum?.rpcUrl ?? '', 31337);
      for (const w of withdrawals) expect(await chain.getBalance({ address: w.to })).toBe(BigInt(w.arrivalMinor));

      expect(stats.failed).toBe(0);
      expect(takeoverMs).toBeLessThanOrEqual(8_000);
      // Each deposit credited once: one ledger transfer per transaction.
      for (const hash of [...firstDeposits, ...secondDeposits]) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from ledger_transfers where idempotency_key = ${`deposit:ethereum:${hash}:-1`}`.execute(
          db,
        );
        expect(rows[0]?.n).toBe(1);
      }
      // Each accepted conversion exists once, with its two transfers.
      const { rows } = await sql<{ conversions: number; transfers: number }>`
        select (select count(*)::int from conversions where quote_id = any(${converted}::uuid[])) as conversions,
               (select count(*)::int from ledger_transfers
                where idempotency_key like 'convert:%' and metadata->>'quoteId' = any(${converted}::text[])) as transfers`.execute(
        db,
      );
      expect(new Set(converted).size).toBe(converted.length);
      expect(rows[0]).toEqual({ conversions: converted.length, transfers: 2 * converted.length });
      expect(converted.length).toBeGreaterThan(CLIENTS);
      // Every e-mail sent, none lost: each outbox row sent, and the SMTP server got each row's message
      // (its Message-ID is the row's). A worker killed between sending and marking sent makes another
      // instance send it again with the same Message-ID (SMTP has no idempotency): counted, not failed.
      clearInterval(stamp);
      const mail = await sql<{ id: string; sent: boolean }>`
        select id::text, sent_at is not null as sent from outbox where to_address like 'drill%'`.execute(db);
      expect(mail.rows.length).toBeGreaterThanOrEqual(2 * CLIENTS);
      expect(mail.rows.every((r) => r.sent)).toBe(true);
      const ids = sink.messages.flatMap((m) => /^Message-ID: <outbox-(\d+)@/im.exec(m.raw)?.[1] ?? []);
      expect(new Set(ids)).toEqual(new Set(mail.rows.map((r) => r.id)));
      const mailResent = ids.length - new Set(ids).size;
      expect((await reconcile(db)).ok).toBe(true);
      console.log(
        JSON.stringify({ drill: { clients: CLIENTS, ...stats, converted: converted.length, takeoverMs, mailResent } }),
      );
    } finally {
      await db.destroy();
    }
  }, 300_000);
});
