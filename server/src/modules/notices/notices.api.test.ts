import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createPasswordHasher } from '../auth/password-hashing.ts';
import { addTestOperator, operatorSignInBody, type TestOperator } from '../operators/test-helpers.ts';
import { recordUserNotice } from './repository.ts';

const database = useTestDatabase();
let clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const hasher = createPasswordHasher();
let app: App;
let opsCookie: string;
let userId: string;
let alice: TestOperator;

const as = (id: string) => ({ [TEST_USER_HEADER]: id });
const ops = () => ({ cookie: opsCookie });

async function publish(body: object) {
  const res = await app.inject({ method: 'POST', url: '/api/ops/announcements', headers: ops(), payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const texts = (title: string) => ({
  'zh-CN': { title: `${title}（中文）`, bodyMd: `**${title}** 正文` },
  en: { title: `${title} (en)`, bodyMd: `**${title}** body` },
});

describe('operators and announcements', () => {
  beforeAll(async () => {
    app = buildTestApp({ db: database.db, now, auth: { hasher } });
    userId = await createUser(database.db);
    alice = await addTestOperator(app, { db: database.db, now }, 'alice_ops');
  });
  afterAll(async () => {
    await app.close();
    await hasher.close();
  });

  it('an operator signs in with the ops_sid cookie, scoped to /api/ops; wrong passwords are refused alike', async () => {
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/ops/session',
      payload: { ...operatorSignInBody(alice, now()), password: 'nope-nope-1' },
    });
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/ops/session',
      payload: { name: 'nobody_ops', password: 'nope-nope-1', totpCode: '123456' },
    });
    expect(unknown.json().code).toBe('INVALID_CREDENTIALS');
    const res = await app.inject({
      method: 'POST',
      url: '/api/ops/session',
      payload: operatorSignInBody(alice, now()),
    });
    expect(res.json()).toEqual({ operator: { name: 'alice_ops', roles: ['support'] } });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^ops_sid=[A-Za-z0-9_-]{22};/);
    expect(cookie).toContain('Path=/api/ops');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    opsCookie = cookie.split(';')[0] as string;
    const who = await app.inject({ method: 'GET', url: '/api/ops/session', headers: ops() });
    expect(who.json()).toEqual({ operator: { name: 'alice_ops', roles: ['support'] } });
  });

  it('a user session cannot reach the operator API', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ops/announcements',
      headers: as(userId),
      payload: { category: 'news', texts: texts('x') },
    });
    expect(res.statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/ops/announcements', headers: as(userId) })).statusCode).toBe(
      401,
    );
  });

  it('published announcements show to visitors and users in their language, zh-CN as fallback, pinned first', async () => {
    const older = await publish({ category: 'news', texts: texts('Older') });
    clock = new Date(clock.getTime() + 60_000);
    const pinned = await publish({
      category: 'maintenance',
      pinned: true,
      texts: { 'zh-CN': texts('Pinned')['zh-CN'] },
    });
    clock = new Date(clock.getTime() + 60_000);
    const newer = await publish({ category: 'listing', texts: texts('Newer') });
    await publish({
      category: 'news',
      publishAt: new Date(clock.getTime() + 3_600_000).toISOString(),
      texts: texts('Later'),
    });

    const visitor = await app.inject({ url: '/api/notices/announcements?lang=en' });
    expect(visitor.json().items.map((i: { id: string }) => i.id)).toEqual([pinned, newer, older]);
    expect(visitor.json().items[0]).toMatchObject({ title: 'Pinned（中文）', language: 'zh-CN', read: false });
    expect(visitor.json().items[1]).toMatchObject({ title: 'Newer (en)', language: 'en', category: 'listing' });

    const page1 = await app.inject({ url: '/api/notices/announcements?lang=es&limit=2', headers: as(userId) });
    const page2 = await app.inject({
      url: `/api/notices/announcements?lang=es&limit=2&cursor=${page1.json().nextCursor}`,
      headers: as(userId),
    });
    expect([...page1.json().items, ...page2.json().items].map((i: { id: string }) => i.id)).toEqual([
      pinned,
      newer,
      older,
    ]);
    expect(page2.json().nextCursor).toBeNull();

    const detail = await app.inject({ url: `/api/notices/announcements/${newer}?lang=en`, headers: as(userId) });
    expect(detail.json()).toMatchObject({ title: 'Newer (en)', bodyHtml: '<p><strong>Newer</strong> body</p>' });
    const unread = await app.inject({ url: '/api/notices/unread', headers: as(userId) });
    expect(unread.json()).toEqual({ announcements: 2, system: 0, total: 2 });
  });

  it('system notices: written once per event, listed newest first, read one by one or all at once', async () => {
    const other = await createUser(database.db);
    for (const [key, kind] of [
      ['deposit:1', 'deposit_credited'],
      ['deposit:1', 'deposit_credited'],
      ['withdrawal:9', 'withdrawal_completed'],
    ] as const) {
      clock = new Date(clock.getTime() + 1000);
      await recordUserNotice(
        database.db,
        { userId, kind, params: { coin: 'USDT', amountMinor: '1500000' }, dedupeKey: key },
        clock,
      );
    }
    const list = await app.inject({ url: '/api/notices/system', headers: as(userId) });
    const items = list.json().items as Array<{ id: string; kind: string; read: boolean }>;
    expect(items.map((i) => i.kind)).toEqual(['withdrawal_completed', 'deposit_credited']);
    expect(list.json().items[1].params).toEqual({ coin: 'USDT', amountMinor: '1500000' });

    const theirs = await app.inject({
      method: 'POST',
      url: `/api/notices/system/${items[0]?.id}/read`,
      headers: as(other),
    });
    expect(theirs.statusCode).toBe(404);
    await app.inject({ method: 'POST', url: `/api/notices/system/${items[0]?.id}/read`, headers: as(userId) });
    expect((await app.inject({ url: '/api/notices/unread', headers: as(userId) })).json()).toEqual({
      announcements: 2,
      system: 1,
      total: 3,
    });
    await app.inject({ method: 'POST', url: '/api/notices/read-all', headers: as(userId), payload: { kind: 'all' } });
    expect((await app.inject({ url: '/api/notices/unread', headers: as(userId) })).json().total).toBe(0);
    expect((await app.inject({ url: '/api/notices/system' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/notices/unread' })).json()).toEqual({
      announcements: 0,
      system: 0,
      total: 0,
    });
  });

  it('withdrawn and expired announcements disappear; bad input is a 400 that changes nothing', async () => {
    const gone = await publish({
      category: 'activity',
      expireAt: new Date(clock.getTime() + 60_000).toISOString(),
      texts: texts('Short'),
    });
    const withdrawn = await publish({ category: 'news', texts: texts('Mistake') });
    const w = await app.inject({ method: 'POST', url: `/api/ops/announcements/${withdrawn}/withdraw`, headers: ops() });
    expect(w.statusCode).toBe(204);
    clock = new Date(clock.getTime() + 120_000);
    const ids = (await app.inject({ url: '/api/notices/announcements' })).json().items.map((i: { id: string }) => i.id);
    expect(ids).not.toContain(gone);
    expect(ids).not.toContain(withdrawn);
    expect((await app.inject({ url: `/api/notices/announcements/${withdrawn}` })).statusCode).toBe(404);

    const count = async () =>
      (await app.inject({ method: 'GET', url: '/api/ops/announcements', headers: ops() })).json().items.length;
    const before = await count();
    for (const body of [
      { category: 'news', texts: { en: { title: 'no zh-CN', bodyMd: 'x' } } },
      { category: 'gossip', texts: texts('x') },
      { category: 'news', texts: { 'zh-CN': { title: '   ', bodyMd: 'x' } } },
      { category: 'news', publishAt: '2030-01-02T00:00:00Z', expireAt: '2030-01-01T00:00:00Z', texts: texts('x') },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/ops/announcements', headers: ops(), payload: body });
      expect({ body, status: res.statusCode }).toMatchObject({ status: 400 });
    }
    expect(await count()).toBe(before);
    expect((await app.inject({ url: '/api/notices/announcements?cursor=bm90LWEtY3Vyc29y' })).statusCode).toBe(400);
  });

  it('an operator signs out: the cookie no longer works', async () => {
    const out = await app.inject({ method: 'DELETE', url: '/api/ops/session', headers: ops() });
    expect(out.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/ops/announcements', headers: ops() })).statusCode).toBe(401);
  });
});
