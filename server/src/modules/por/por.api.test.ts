import { type InclusionProof, verifyProof } from '@cw/shared-state/por';
import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { createLedgerService } from '../ledger/service.ts';
import { runPorCommand } from './ops-commands.ts';
import { publishSnapshot } from './snapshot.ts';

describe('proof of liabilities', () => {
  const h = useAuthHarness();
  const ledger = () => createLedgerService({ db: h.db, now: h.clock.now });

  it('publishes a root whose totals are the ledger liabilities; each user verifies their own proof', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/por' })).json()).toEqual({ latest: null, history: [] });
    const users = [];
    for (let i = 0; i < 5; i++) {
      const u = await registerUser(h);
      await ledger().deposit({
        idempotencyKey: `por:${u.user.id}`,
        userId: u.user.id,
        asset: 'USDT',
        amountMinor: BigInt((i + 1) * 1_000_000),
      });
      if (i % 2 === 0) {
        await ledger().deposit({
          idempotencyKey: `por:eth:${u.user.id}`,
          userId: u.user.id,
          asset: 'ETH',
          amountMinor: 10n ** 16n,
        });
      }
      users.push(u);
    }
    const lines: string[] = [];
    expect(await runPorCommand(h.db, ['publish'], (l) => lines.push(l), h.clock.now)).toBe(0);
    expect(lines[0]).toMatch(/5 users/);
    const roots = (await h.app.inject({ method: 'GET', url: '/api/por' })).json();
    expect(roots.latest).toMatchObject({
      assets: ['ETH', 'USDT'],
      rootSums: ['30000000000000000', '15000000'],
      leafCount: 5,
    });

    for (const [i, u] of users.entries()) {
      const res = await h.app.inject({ method: 'GET', url: '/api/por/proof', headers: { cookie: u.cookie } });
      expect(res.statusCode).toBe(200);
      const proof = res.json() as InclusionProof;
      expect(proof.leaf.userId).toBe(u.user.id);
      expect(proof.leaf.balances[1]).toBe(String((i + 1) * 1_000_000));
      expect(proof.root.hash).toBe(roots.latest.rootHash);
      expect(verifyProof(proof)).toMatchObject({ ok: true });
      // Someone else's balance in place of this user's does not verify.
      expect(verifyProof({ ...proof, leaf: { ...proof.leaf, balances: ['0', '1'] } }).ok).toBe(false);
    }
    expect((await h.app.inject({ method: 'GET', url: '/api/por/proof' })).statusCode).toBe(401);
  });

  it('a snapshot taken during concurrent deposits sums exactly to the ledger at one instant', async () => {
    const u = await registerUser(h);
    const before = await publishSnapshot(h.db, h.clock.now());
    const usdt = (s: { assets: string[]; rootSums: string[] }) => BigInt(s.rootSums[s.assets.indexOf('USDT')] ?? '0');
    const deposits = Array.from({ length: 40 }, (_, k) =>
      ledger().deposit({ idempotencyKey: `race:${k}`, userId: u.user.id, asset: 'USDT', amountMinor: 1n }),
    );
    // publishSnapshot asserts, inside its one repeatable-read snapshot, that the root equals the ledger totals.
    const during = await Promise.all([
      publishSnapshot(h.db, h.clock.now()),
      publishSnapshot(h.db, h.clock.now()),
      ...deposits,
    ]);
    const after = await publishSnapshot(h.db, h.clock.now());
    for (const s of during.slice(0, 2) as (typeof before)[]) {
      expect(usdt(s) - usdt(before)).toBeGreaterThanOrEqual(0n);
      expect(usdt(s) - usdt(before)).toBeLessThanOrEqual(40n);
    }
    expect(usdt(after) - usdt(before)).toBe(40n);
  });

  it('keeps past roots and refuses changes to them', async () => {
    const roots = (await h.app.inject({ method: 'GET', url: '/api/por' })).json();
    expect(roots.history.length).toBeGreaterThan(0);
    await expect(h.db.deleteFrom('por_snapshots').execute()).rejects.toThrow(/append-only/);
  });
});

describe('proof of liabilities status', () => {
  const h = useAuthHarness();
  const ledger = () => createLedgerService({ db: h.db, now: h.clock.now });

  it('status: a new account is "not in the latest snapshot yet" (no error), with when the next is due', async () => {
    const u = await registerUser(h);
    const status = async () =>
      (await h.app.inject({ method: 'GET', url: '/api/por/status', headers: { cookie: u.cookie } })).json();
    // Nothing published yet: due now.
    expect(await status()).toEqual({ latest: null, included: false, nextDueAt: h.clock.now().toISOString() });
    // Published 7 h ago, before this user held anything: a normal state, not a 404; overdue, so due now.
    const first = await publishSnapshot(h.db, new Date(h.clock.now().getTime() - 7 * 3_600_000));
    expect(await status()).toEqual({
      latest: { id: first.id, createdAt: first.createdAt.toISOString() },
      included: false,
      nextDueAt: h.clock.now().toISOString(),
    });
    await ledger().deposit({
      idempotencyKey: `por:new:${u.user.id}`,
      userId: u.user.id,
      asset: 'USDT',
      amountMinor: 5n,
    });
    expect((await status()).included).toBe(false);
    const second = await publishSnapshot(h.db, h.clock.now());
    // Included now; the next one the default interval (6 h) after it.
    expect(await status()).toEqual({
      latest: { id: second.id, createdAt: second.createdAt.toISOString() },
      included: true,
      nextDueAt: new Date(second.createdAt.getTime() + 6 * 3_600_000).toISOString(),
    });
    expect((await h.app.inject({ method: 'GET', url: '/api/por/status' })).statusCode).toBe(401);
  });
});
