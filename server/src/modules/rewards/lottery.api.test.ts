import { createHash } from 'node:crypto';
import { canonicalPrizeTable, drawPrizeIndex, verifyClientSeedDraw, verifyDraw } from '@cw/shared-state/lottery';
import { beforeAll, describe, expect, it } from 'vitest';
import { login, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { insertAnnouncement } from '../notices/repository.ts';
import { addDays } from './days.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { seedRewardsPool } from './rewards-module.ts';

const config = rewardsConfigFromEnv({ LIKES_PER_DRAW: '3', DRAWS_PER_DAY: '3', REWARDS_SEED_POOL: '1000' });

/** A live announcement (published a minute ago, zh-CN only). */
function publish(h: ReturnType<typeof useAuthHarness>, title: string): Promise<string> {
  return h.db.transaction().execute((trx) =>
    insertAnnouncement(
      trx,
      {
        category: 'news',
        pinned: false,
        publishAt: new Date(h.clock.now().getTime() - 60_000),
        expireAt: null,
        createdBy: null,
        texts: [{ language: 'zh-CN', title, bodyMd: 'x', bodyHtml: '<p>x</p>' }],
      },
      h.clock.now(),
    ),
  );
}

/** Sets a client seed against the commitment the likes status shows. */
async function setClientSeedFor(h: ReturnType<typeof useAuthHarness>, cookie: string, clientSeed: string) {
  const shown = (await h.app.inject({ method: 'GET', url: '/api/rewards/likes', headers: { cookie } })).json();
  const set = await h.app.inject({
    method: 'PUT',
    url: '/api/rewards/lottery/client-seed',
    headers: { cookie },
    payload: { clientSeed, commitment: shown.fairness.nextCommitment },
  });
  if (set.statusCode !== 200) throw new Error(`client seed refused: ${set.body}`);
}

describe('likes lottery', () => {
  const h = useAuthHarness({ rewards: { config } });
  const posts: string[] = [];
  beforeAll(async () => {
    await seedRewardsPool(h.db, config, h.clock.now());
    for (let i = 0; i < 12; i++) posts.push(await publish(h, `公告 ${i}`));
  });

  const status = (cookie: string) =>
    h.app.inject({ method: 'GET', url: '/api/rewards/likes?lang=en', headers: { cookie } });
  const like = (cookie: string, id: string) =>
    h.app.inject({ method: 'PUT', url: `/api/rewards/likes/${id}`, headers: { cookie } });
  const drawOnce = (cookie: string) => h.app.inject({ method: 'POST', url: '/api/rewards/draws', headers: { cookie } });
  /** A new user's client seed, set against the commitment shown (as the likes screen does before a first draw). */
  const seeded = async () => {
    const u = await registerUser(h);
    await setClientSeedFor(h, u.cookie, `seed-${u.user.id.slice(0, 8)}`);
    return u;
  };

  it('earns a draw per 3 likes (each post once), refuses beyond the allowance, and shows the commitment first', async () => {
    const u = await seeded();
    const before = (await status(u.cookie)).json();
    expect(before).toMatchObject({ earned: 0, used: 0, likesToday: 0 });
    expect(before.fairness.active.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(before.posts.length).toBe(12);
    expect((await drawOnce(u.cookie)).json().code).toBe('NO_MORE_DRAWS');
    for (const id of posts.slice(0, 2)) expect((await like(u.cookie, id)).statusCode).toBe(204);
    expect((await like(u.cookie, posts[0] as string)).statusCode).toBe(204); // again: no second like
    expect((await status(u.cookie)).json()).toMatchObject({ likesToday: 2, earned: 0 });
    await like(u.cookie, posts[2] as string);
    const drawn = await drawOnce(u.cookie);
    expect(drawn.statusCode).toBe(201);
    expect(drawn.json()).toMatchObject({ n: 1, asset: 'USDT' });
    expect((await drawOnce(u.cookie)).json().code).toBe('NO_MORE_DRAWS');
    expect((await like(u.cookie, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('50 concurrent draws by one user never exceed the allowance', async () => {
    const u = await seeded();
    for (const id of posts) await like(u.cookie, id); // 12 likes: 4 earned, capped at 3
    const results = await Promise.all(Array.from({ length: 50 }, () => drawOnce(u.cookie)));
    const ok = results.filter((r) => r.statusCode === 201);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.json().code === 'NO_MORE_DRAWS')).toHaveLength(47);
    expect(ok.map((r) => r.json().n).sort()).toEqual([1, 2, 3]);
    expect(ok.map((r) => r.json().nonce).sort()).toEqual([1, 2, 3]);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('a day over reveals nothing of a client-seed draw (only a new client seed does), and the day is listed', async () => {
    const u = await seeded();
    for (const id of posts.slice(0, 6)) await like(u.cookie, id);
    const today = (await status(u.cookie)).json();
    await drawOnce(u.cookie);
    await drawOnce(u.cookie);
    h.clock.set(new Date(`${addDays(today.day, 1)}T00:00:01Z`));
    const cookie = sessionCookie(await login(h, u.email, u.password));
    const past = (
      await h.app.inject({ method: 'GET', url: `/api/rewards/lottery/${today.day}`, headers: { cookie } })
    ).json();
    expect(past.draws).toHaveLength(2);
    expect(past.draws.every((d: { serverSeed: string | null }) => d.serverSeed === null)).toBe(true);
    expect((await status(cookie)).json().pastDays).toEqual([today.day]);
  });

  it('an older draw on the day seed still verifies after its day', async () => {
    const u = await registerUser(h);
    const day = '2020-01-01';
    const seed = Buffer.alloc(32, 3);
    await h.db
      .insertInto('lottery_seeds')
      .values({ day, seed, commitment: createHash('sha256').update(seed).digest('hex'), created_at: h.clock.now() })
      .execute();
    const prizeIndex = await drawPrizeIndex(Uint8Array.from(seed), u.user.id, day, 1, config.prizes);
    await h.db
      .insertInto('lottery_draws')
      .values({
        day,
        user_id: u.user.id,
        n: 1,
        prize_index: prizeIndex,
        asset: 'USDT',
        prize_minor: '0',
        created_at: h.clock.now(),
        server_seed_id: null,
        nonce: null,
        prize_table: null,
      })
      .execute();
    const view = (
      await h.app.inject({ method: 'GET', url: `/api/rewards/lottery/${day}`, headers: { cookie: u.cookie } })
    ).json();
    const [d] = view.draws;
    expect(d).toMatchObject({ clientSeed: null, nonce: 1, prizeTable: null, serverSeed: seed.toString('hex') });
    expect(
      await verifyDraw({
        seedHex: d.serverSeed,
        commitment: d.commitment,
        userId: view.userId,
        day,
        n: d.n,
        prizeIndex: d.prizeIndex,
        prizes: config.prizes,
      }),
    ).toEqual({ commitmentOk: true, drawOk: true });
  });
});

describe('likes lottery: provably fair against the operator (issue 36 item 15)', () => {
  const h = useAuthHarness({ rewards: { config } });
  const posts: string[] = [];
  beforeAll(async () => {
    await seedRewardsPool(h.db, config, h.clock.now());
    for (let i = 0; i < 9; i++) posts.push(await publish(h, `公告 ${i}`));
  });
  const status = (cookie: string) =>
    h.app.inject({ method: 'GET', url: '/api/rewards/likes?lang=en', headers: { cookie } });
  const setClientSeed = async (cookie: string, clientSeed: string, commitment?: string) =>
    h.app.inject({
      method: 'PUT',
      url: '/api/rewards/lottery/client-seed',
      headers: { cookie },
      payload: { clientSeed, commitment: commitment ?? (await status(cookie)).json().fairness.nextCommitment },
    });
  const drawOnce = (cookie: string) => h.app.inject({ method: 'POST', url: '/api/rewards/draws', headers: { cookie } });

  it('the commitment precedes the client seed; each draw returns its inputs and verifies alone once revealed', async () => {
    const u = await registerUser(h);
    for (const id of posts)
      await h.app.inject({ method: 'PUT', url: `/api/rewards/likes/${id}`, headers: { cookie: u.cookie } });
    const before = (await status(u.cookie)).json();
    expect(before.fairness.active).toBeNull();
    const committed = before.fairness.nextCommitment;
    expect(committed).toMatch(/^[0-9a-f]{64}$/);
    // No client seed yet: the server never draws on a seed it would have to pick itself.
    const refused = await drawOnce(u.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('CLIENT_SEED_REQUIRED');
    expect((await setClientSeed(u.cookie, 'has space')).statusCode).toBe(400);
    // A client seed names the commitment it was chosen against; another one is refused.
    expect((await setClientSeed(u.cookie, 'alice-1', 'a'.repeat(64))).json().code).toBe('CONFLICT');
    // The client seed pairs with the server seed committed BEFORE it was chosen.
    const set = await setClientSeed(u.cookie, 'alice-1', committed);
    expect(set.statusCode).toBe(200);
    expect(set.json().active).toMatchObject({ commitment: committed, clientSeed: 'alice-1', nonce: 0 });
    expect(set.json().nextCommitment).not.toBe(committed);
    const first = (await drawOnce(u.cookie)).json();
    const second = (await drawOnce(u.cookie)).json();
    expect(first).toMatchObject({ commitment: committed, clientSeed: 'alice-1', nonce: 1, serverSeed: null });
    expect(second).toMatchObject({ commitment: committed, clientSeed: 'alice-1', nonce: 2 });
    expect(first.prizeTableHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.prizeTable).toEqual(
      config.prizes.map((p) => ({ weight: p.weight, amountMinor: p.amountMinor.toString() })),
    );
    // Once the client seed is set, the committed server seed cannot be swapped.
    const row = await h.db
      .selectFrom('lottery_server_seeds')
      .selectAll()
      .where('commitment', '=', committed)
      .executeTakeFirstOrThrow();
    expect(row.created_at.getTime()).toBeLessThanOrEqual((row.activated_at as Date).getTime());
    await expect(
      h.db
        .updateTable('lottery_server_seeds')
        .set({ seed: Buffer.alloc(32, 7) })
        .where('id', '=', row.id)
        .execute(),
    ).rejects.toThrow(/never change/);
    await expect(
      h.db.updateTable('lottery_server_seeds').set({ client_seed: 'other' }).where('id', '=', row.id).execute(),
    ).rejects.toThrow(/never change/);
    // A new client seed retires (reveals) the server seed: every draw on it verifies from its own fields.
    const rotated = (await setClientSeed(u.cookie, 'alice-2')).json();
    expect(rotated.revealed).toMatchObject({ commitment: committed });
    expect(rotated.active).toMatchObject({ commitment: set.json().nextCommitment, clientSeed: 'alice-2', nonce: 0 });
    const day = (
      await h.app.inject({ method: 'GET', url: `/api/rewards/lottery/${first.day}`, headers: { cookie: u.cookie } })
    ).json();
    expect(day.draws).toHaveLength(2);
    for (const d of day.draws) {
      expect(d.serverSeed).toBe(rotated.revealed.serverSeed);
      const checked = await verifyClientSeedDraw({
        serverSeedHex: d.serverSeed,
        commitment: d.commitment,
        clientSeed: d.clientSeed,
        nonce: d.nonce,
        prizeTable: d.prizeTable,
        prizeTableHash: d.prizeTableHash,
        prizeIndex: d.prizeIndex,
      });
      expect(checked).toEqual({ commitmentOk: true, prizeTableOk: true, drawOk: true });
    }
    expect((await drawOnce(u.cookie)).json()).toMatchObject({ clientSeed: 'alice-2', nonce: 1 });
    expect((await reconcile(h.db)).ok).toBe(true);
  });
  it('a seed row is history: retired_at and activated_at are write-once and no row is deleted (review L5)', async () => {
    const u = await registerUser(h);
    const first = (await setClientSeed(u.cookie, 'carol-1')).json().active.commitment;
    await setClientSeed(u.cookie, 'carol-2');
    const rows = h.db.selectFrom('lottery_server_seeds').select(['id', 'commitment']).where('user_id', '=', u.user.id);
    const retired = await rows.where('commitment', '=', first).executeTakeFirstOrThrow();
    const seeds = h.db.updateTable('lottery_server_seeds').where('id', '=', retired.id);
    await expect(seeds.set({ retired_at: null }).execute()).rejects.toThrow(/never change/);
    await expect(seeds.set({ retired_at: new Date() }).execute()).rejects.toThrow(/never change/);
    await expect(seeds.set({ activated_at: new Date() }).execute()).rejects.toThrow(/never change/);
    await expect(h.db.deleteFrom('lottery_server_seeds').where('user_id', '=', u.user.id).execute()).rejects.toThrow(
      /never deleted/,
    );
    expect(await rows.execute()).toHaveLength(3); // retired, active, next
  });
});

describe('likes lottery: the prize table is fixed with the seed pair (review of item 15, M1)', () => {
  // One config object the harness reads on every request: changing its prizes is a reconfiguration.
  const live = { ...rewardsConfigFromEnv({ LIKES_PER_DRAW: '1', DRAWS_PER_DAY: '5', REWARDS_SEED_POOL: '1000' }) };
  const h = useAuthHarness({ rewards: { config: live } });
  const tableHash = (prizes: readonly { weight: number; amountMinor: string | bigint }[]) =>
    createHash('sha256').update(canonicalPrizeTable(prizes)).digest('hex');

  it('a draw after the prize table changed is refused, nothing booked, until a new client seed names the new table', async () => {
    await seedRewardsPool(h.db, live, h.clock.now());
    const u = await registerUser(h);
    for (let i = 0; i < 3; i++) {
      const id = await publish(h, `p${i}`);
      await h.app.inject({ method: 'PUT', url: `/api/rewards/likes/${id}`, headers: { cookie: u.cookie } });
    }
    const shown = (
      await h.app.inject({ method: 'GET', url: '/api/rewards/likes', headers: { cookie: u.cookie } })
    ).json();
    const seen = tableHash(shown.prizes);
    const put = (clientSeed: string, commitment: string, prizeTableHash: string) =>
      h.app.inject({
        method: 'PUT',
        url: '/api/rewards/lottery/client-seed',
        headers: { cookie: u.cookie },
        payload: { clientSeed, commitment, prizeTableHash },
      });
    const set = await put('dave-1', shown.fairness.nextCommitment, seen);
    expect(set.statusCode).toBe(200);
    expect(set.json().active).toMatchObject({ clientSeed: 'dave-1', prizeTableHash: seen });
    expect(set.json().userId).toBe(u.user.id);
    const drawOnce = () => h.app.inject({ method: 'POST', url: '/api/rewards/draws', headers: { cookie: u.cookie } });
    expect((await drawOnce()).json()).toMatchObject({ nonce: 1, prizeTableHash: seen });
    // The operator changes the prizes: the active pair was chosen against the old table.
    const before = live.prizes;
    live.prizes = [...before.slice(0, -1), { weight: 1, amountMinor: 999_999n }];
    const refused = await drawOnce();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('PRIZE_TABLE_CHANGED');
    const drawn = await h.db.selectFrom('lottery_draws').select('nonce').where('user_id', '=', u.user.id).execute();
    expect(drawn).toHaveLength(1);
    // A client seed set against the table the user saw before the change is refused too.
    const next = set.json().nextCommitment;
    expect((await put('dave-2', next, seen)).json().code).toBe('PRIZE_TABLE_CHANGED');
    const now = tableHash(live.prizes);
    const rotated = await put('dave-2', next, now);
    expect(rotated.json().active).toMatchObject({ clientSeed: 'dave-2', prizeTableHash: now });
    expect((await drawOnce()).json()).toMatchObject({ clientSeed: 'dave-2', nonce: 1, prizeTableHash: now });
    live.prizes = before;
    expect((await reconcile(h.db)).ok).toBe(true);
  });
});

describe('likes lottery with an empty pool', () => {
  const broke = { ...rewardsConfigFromEnv({ LIKES_PER_DRAW: '1' }), prizes: [{ weight: 1, amountMinor: 10n }] };
  const h = useAuthHarness({ rewards: { config: broke } });

  it('answers "draw failed" and books nothing when the prize cannot be paid', async () => {
    const u = await registerUser(h);
    await setClientSeedFor(h, u.cookie, 'broke');
    const id = await publish(h, 't');
    await h.app.inject({ method: 'PUT', url: `/api/rewards/likes/${id}`, headers: { cookie: u.cookie } });
    const failed = await h.app.inject({ method: 'POST', url: '/api/rewards/draws', headers: { cookie: u.cookie } });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().code).toBe('DRAW_FAILED');
    expect(await h.db.selectFrom('lottery_draws').selectAll().execute()).toEqual([]);
  });
});

describe('likes lottery prizes (issue 36 item 14: the rule the README states)', () => {
  const sure = {
    ...rewardsConfigFromEnv({ LIKES_PER_DRAW: '1', REWARDS_SEED_POOL: '1000' }),
    prizes: [{ weight: 1, amountMinor: 10_000n }],
  };
  const h = useAuthHarness({ rewards: { config: sure } });

  it('a prize goes to the available balance at once (not pending rewards), one reward posting keyed by the draw', async () => {
    await seedRewardsPool(h.db, sure, h.clock.now());
    const u = await registerUser(h);
    await setClientSeedFor(h, u.cookie, 'sure');
    const id = await publish(h, 't');
    await h.app.inject({ method: 'PUT', url: `/api/rewards/likes/${id}`, headers: { cookie: u.cookie } });
    const drawn = await h.app.inject({ method: 'POST', url: '/api/rewards/draws', headers: { cookie: u.cookie } });
    expect(drawn.json()).toMatchObject({ n: 1, prizeMinor: '10000' });
    const balances = await h.db
      .selectFrom('ledger_accounts')
      .select(['kind', 'balance'])
      .where('user_id', '=', u.user.id)
      .execute();
    expect(balances.find((b) => b.kind === 'user_available')?.balance).toBe('10000');
    expect(balances.find((b) => b.kind === 'user_rewards')?.balance ?? '0').toBe('0');
    const transfer = await h.db
      .selectFrom('ledger_transfers')
      .select(['kind', 'idempotency_key'])
      .where('idempotency_key', 'like', `reward:draw:%:${u.user.id}:1`)
      .executeTakeFirstOrThrow();
    expect(transfer.kind).toBe('reward');
    expect((await reconcile(h.db)).ok).toBe(true);
  });
});
