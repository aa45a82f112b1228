import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { defaultSettings, fiatCurrencies } from './schemas.ts';

const settings = {
  language: 'es',
  priceColor: 'red-up',
  fiatCurrency: 'BRL',
  quickBuy: { enabled: true, coin: 'USDC', fiatAmount: '250.5' },
};

describe('/api/me/settings on PostgreSQL', () => {
  const database = useTestDatabase();
  let app: App;
  let userId: string;
  let otherUserId: string;
  const as = (id: string) => ({ [TEST_USER_HEADER]: id });

  beforeAll(async () => {
    app = buildTestApp({ db: database.db, now: () => new Date('2031-05-06T07:08:09.000Z') });
    userId = await createUser(database.db);
    otherUserId = await createUser(database.db);
  });
  afterAll(() => app.close());

  it('requires a signed-in user', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await app.inject({ method, url: '/api/me/settings', payload: method === 'PUT' ? {} : undefined });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Authentication required' });
    }
  });

  it('returns the defaults, marked never saved, before anything is saved', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/me/settings', headers: as(userId) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...defaultSettings, saved: false });
  });

  it('round-trips through the database, amount normalised to 2 decimals', async () => {
    const put = await app.inject({ method: 'PUT', url: '/api/me/settings', headers: as(userId), payload: settings });
    expect(put.statusCode).toBe(200);
    const expected = { ...settings, quickBuy: { ...settings.quickBuy, fiatAmount: '250.50' }, saved: true };
    expect(put.json()).toEqual(expected);

    const get = await app.inject({ method: 'GET', url: '/api/me/settings', headers: as(userId) });
    expect(get.json()).toEqual(expected);

    const row = await database.db
      .selectFrom('user_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.updated_at.toISOString()).toBe('2031-05-06T07:08:09.000Z');

    // Replacing again updates the same row.
    const again = {
      ...settings,
      language: 'zh-TW',
      quickBuy: { enabled: false, coin: 'ETH', fiatAmount: '999999999.99' },
    };
    await app.inject({ method: 'PUT', url: '/api/me/settings', headers: as(userId), payload: again });
    expect((await app.inject({ method: 'GET', url: '/api/me/settings', headers: as(userId) })).json()).toEqual({
      ...again,
      saved: true,
    });
  });

  it("keeps users' settings apart", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/me/settings', headers: as(otherUserId) });
    expect(res.json()).toEqual({ ...defaultSettings, saved: false });
  });

  it('accepts every currency of the closed list', async () => {
    for (const fiatCurrency of fiatCurrencies) {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/me/settings',
        headers: as(otherUserId),
        payload: { ...settings, fiatCurrency },
      });
      expect([fiatCurrency, res.statusCode]).toEqual([fiatCurrency, 200]);
    }
  });

  it.each([
    ['language', { ...settings, language: 'fr' }, 'language'],
    ['price colour', { ...settings, priceColor: 'blue-up' }, 'priceColor'],
    ['currency', { ...settings, fiatCurrency: 'XXX' }, 'fiatCurrency'],
    ['coin', { ...settings, quickBuy: { ...settings.quickBuy, coin: 'DOGE' } }, 'quickBuy.coin'],
    ['3 decimals', { ...settings, quickBuy: { ...settings.quickBuy, fiatAmount: '1.234' } }, 'quickBuy.fiatAmount'],
    ['negative', { ...settings, quickBuy: { ...settings.quickBuy, fiatAmount: '-1' } }, 'quickBuy.fiatAmount'],
    ['10 digits', { ...settings, quickBuy: { ...settings.quickBuy, fiatAmount: '1234567890' } }, 'quickBuy.fiatAmount'],
    ['number amount', { ...settings, quickBuy: { ...settings.quickBuy, fiatAmount: 100 } }, 'quickBuy.fiatAmount'],
    ['string boolean', { ...settings, quickBuy: { ...settings.quickBuy, enabled: 'true' } }, 'quickBuy.enabled'],
    ['missing field', { language: 'en', priceColor: 'red-up', quickBuy: settings.quickBuy }, 'fiatCurrency'],
    ['unknown field', { ...settings, theme: 'dark' }, 'theme'],
  ])('rejects a bad %s with VALIDATION_FAILED naming the field', async (_name, payload, field) => {
    const res = await app.inject({ method: 'PUT', url: '/api/me/settings', headers: as(userId), payload });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('treats a session whose user no longer exists as unauthenticated', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/me/settings',
      headers: as('00000000-0000-4000-8000-000000000000'),
      payload: settings,
    });
    expect(res.statusCode).toBe(401);
  });
});
