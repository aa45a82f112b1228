import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { reconcile } from '../server/src/modules/ledger/reconcile.ts';
import {
  alive,
  countDuplicateEffects,
  type Drill,
  fundClients,
  holderOf,
  pidOf,
  startDrill,
  startWork,
  successfulDeposits,
  waitUntil,
  withdrawHalf,
} from './lib/drill-scenario.ts';

/**
 * The kill drill (issue 15): three API instances behind nginx on one PostgreSQL, clients registering
 * and signing in (codes by e-mail over real SMTP), depositing on the local chain, converting and
 * withdrawing, while one instance, then the leader of the background roles, then the signer holding
 * the hot wallet's lease are killed with SIGKILL. Afterwards every request has succeeded (some after
 * being sent again), every deposit is credited exactly once (including those that arrived after the
 * leader died), every conversion exists once, every withdrawal is paid on chain exactly once, every
 * e-mail is delivered (a repeat keeps its Message-ID), the launcher has started the killed instances
 * again, and the ledger reconciles.
 * KILL_DRILL_CLIENTS sets the number of clients (default 12 here; bench:scale runs 64).
 */
const CLIENTS = Number(process.env.KILL_DRILL_CLIENTS ?? 12);

let drill: Drill | undefined;
afterAll(() => drill?.stop());

describe('kill drill', () => {
  it('three instances behind nginx lose one instance, the leader and the signer: nothing lost, nothing twice', async () => {
    drill = await startDrill({ instances: 3, clients: CLIENTS, tag: 'kill-drill' });
    const { db, cluster } = drill;
    await Promise.all(drill.clients.map((c) => c.register()));
    await fundClients(drill, '1');
    const work = startWork(drill);
    const firstWithdrawals = withdrawHalf(drill, 0, 1);

    // 1. An instance that is not the leader dies.
    const leader = await holderOf(db, 'background');
    cluster.instances.find((i) => i.child.pid !== pidOf(leader))?.child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 3_000));

    // 2. The leader of the background roles dies; deposits arriving now are the successor's to credit.
    const leaderInstance = cluster.instances.find((i) => i.child.pid === pidOf(leader));
    expect(leaderInstance).toBeDefined();
    const killedAt = Date.now();
    leaderInstance?.child.kill('SIGKILL');
    const credited = await successfulDeposits(db);
    const second = fundClients(drill, '0.5');
    await waitUntil(
      'another instance leads',
      async () => ![null, leader].includes(await holderOf(db, 'background')),
      10_000,
      50,
    );
    const takeoverMs = Date.now() - killedAt;
    await second;
    expect(await successfulDeposits(db)).toBe(credited + CLIENTS);
    await firstWithdrawals;

    // 3. The signer holding the hot wallet's lease dies (SIGKILL: no hand-over) with withdrawals coming.
    //    (The leader's own signer stopped with it: wait for the one leading now, on the survivor.)
    let signerPid = 0;
    await waitUntil(
      'a live signer leads',
      async () => {
        signerPid = pidOf(await holderOf(db, 'signer'));
        return alive(signerPid);
      },
      15_000,
    );
    process.kill(signerPid, 'SIGKILL');
    await withdrawHalf(drill, 1, 2);
    const ids = drill.withdrawals.map((w) => w.id);
    await waitUntil('every withdrawal paid', async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from withdrawals
        where id = any(${ids}::uuid[]) and state = 'transfer_successful'`.execute(db);
      return rows[0]?.n === CLIENTS;
    });
    await work.stop();

    // The launcher started the killed instances again: all three serve.
    await waitUntil('every instance back', async () => {
      const ready = await Promise.all(
        cluster.instances.map((i) =>
          fetch(`http://127.0.0.1:${i.port}/api/ready`).then(
            (r) => r.ok,
            () => false,
          ),
        ),
      );
      return ready.every(Boolean);
    });
    expect(cluster.instances.every((i) => alive(i.child.pid ?? 0))).toBe(true);

    expect(drill.stats.failed).toBe(0);
    expect(takeoverMs).toBeLessThanOrEqual(8_000);
    expect(drill.converted.length).toBeGreaterThan(CLIENTS);
    const { duplicateEffects, mailResent } = await countDuplicateEffects(drill);
    expect(duplicateEffects).toBe(0);
    expect((await reconcile(db)).ok).toBe(true);
    console.log(
      JSON.stringify({
        drill: { clients: CLIENTS, ...drill.stats, converted: drill.converted.length, takeoverMs, mailResent },
      }),
    );
  }, 300_000);
});
