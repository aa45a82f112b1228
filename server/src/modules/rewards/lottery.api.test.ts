import { drawPrizeIndex, verifyDraw } from '@cw/shared-state/lottery';
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

  it('earns a draw per 3 likes (each post once), refuses beyond the allowance, and shows the commitment first', async () => {
    const u = await registerUser(h);
    const before = (await status(u.cookie)).json();
    expect(before).toMatchObject({ earned: 0, used: 0, likesToday: 0 });
    expect(before.commitment).toMatch(/^[0-9a-f]{64}$/);
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
    const u = await registerUser(h);
    for (const id of posts) await like(u.cookie, id); // 12 likes: 4 earned, capped at 3
    const results = await Promise.all(Array.from({ length: 50 }, () => drawOnce(u.cookie)));
    const ok = results.filter((r) => r.statusCode === 201);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.json().code === 'NO_MORE_DRAWS')).toHaveLength(47);
    expect(ok.map((r) => r.json().n).sort()).toEqual([1, 2, 3]);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('reveals the seed after the day, and every draw recomputes to the same prize', async () => {
    const u = await registerUser(h);
    for (const id of posts.slice(0, 6)) await like(u.cookie, id);
    const today = (await status(u.cookie)).json();
    await drawOnce(u.cookie);
    await drawOnce(u.cookie);
    const hidden = (
      await h.app.inject({ method: 'GET', url: `/api/rewards/lottery/${today.day}`, headers: { cookie: u.cookie } })
    ).json();
    expect(hidden.seed).toBeNull();
    expect(hidden.commitment).toBe(today.commitment);
    h.clock.set(new Date(`${addDays(today.day, 1)}T00:00:01Z`));
    const cookie = sessionCookie(await login(h, u.email, u.password));
    const revealed = (
      await h.app.inject({ method: 'GET', url: `/api/rewards/lottery/${today.day}`, headers: { cookie } })
    ).json();
    expect(revealed.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(revealed.draws).toHaveLength(2);
    for (const d of revealed.draws) {
      const checked = await verifyDraw({
        seedHex: revealed.seed,
        commitment: revealed.commitment,
        userId: revealed.userId,
        day: d.day,
        n: d.n,
        prizeIndex: d.prizeIndex,
        prizes: config.prizes,
      });
      expect(checked).toEqual({ commitmentOk: true, drawOk: true });
      const seed = Uint8Array.from(Buffer.from(revealed.seed, 'hex'));
      expect(await drawPrizeIndex(seed, u.user.id, d.day, d.n, config.prizes)).toBe(d.prizeIndex);
    }
    expect((await status(cookie)).json().pastDays).toEqual([today.day]);
  });
});

describe('likes lottery with an empty pool', () => {
  const broke = { ...rewardsConfigFromEnv({ LIKES_PER_DRAW: '1' }), prizes: [{ weight: 1, amountMinor: 10n }] };
  const h = useAuthHarness({ rewards: { config: broke } });

  it('answers "draw failed" and books nothing when the prize cannot be paid', async () => {
    const u = await registerUser(h);
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
