import { describe, expect, it } from 'vitest';
import { nextIp } from '../auth/test-helpers.ts';
import { get, newUser, post, useWalletHarness, type WalletUser } from '../withdrawals/test-helpers.ts';
import { ADDRESS_BOOK_LIMIT } from './schemas.ts';

const h = useWalletHarness();

const entry = (over: Record<string, unknown> = {}) => ({
  name: 'Cold wallet',
  walletType: 'personal',
  network: 'tron',
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  remark: 'my ledger',
  ...over,
});

const call = (user: WalletUser, method: 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject({
    method,
    url,
    remoteAddress: nextIp(),
    headers: { cookie: user.cookie },
    ...(payload ? { payload } : {}),
  });

describe('/api/wallet/address-book', () => {
  it('adds, lists (per user, filter by network), updates and deletes entries', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    const created = await post(h, a, '/api/wallet/address-book', entry());
    expect(created.statusCode, created.body).toBe(201);
    const evm = await post(
      h,
      a,
      '/api/wallet/address-book',
      entry({ network: 'bsc', address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', remark: null }),
    );
    expect(evm.json().address).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    const list = (await get(h, a, '/api/wallet/address-book')).json();
    expect(list.entries).toHaveLength(2);
    expect(list.limit).toBe(ADDRESS_BOOK_LIMIT);
    expect((await get(h, a, '/api/wallet/address-book?network=tron')).json().entries).toHaveLength(1);
    expect((await get(h, b, '/api/wallet/address-book')).json().entries).toHaveLength(0);

    const id = created.json().id;
    const updated = await call(
      a,
      'PUT',
      `/api/wallet/address-book/${id}`,
      entry({ name: 'Renamed', walletType: 'exchange' }),
    );
    expect(updated.json()).toMatchObject({ name: 'Renamed', walletType: 'exchange' });
    expect((await call(b, 'PUT', `/api/wallet/address-book/${id}`, entry())).statusCode).toBe(404);
    expect((await call(b, 'DELETE', `/api/wallet/address-book/${id}`)).statusCode).toBe(404);
    expect((await call(a, 'DELETE', `/api/wallet/address-book/${id}`)).statusCode).toBe(204);
    expect((await get(h, a, '/api/wallet/address-book')).json().entries).toHaveLength(1);
  });

  it.each([
    ['a BTC address on tron', entry({ address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }), 'ADDRESS_INVALID'],
    [
      'a bad checksum',
      entry({ network: 'ethereum', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }),
      'ADDRESS_INVALID',
    ],
    ['an empty name', entry({ name: '' }), 'VALIDATION_FAILED'],
    ['an unknown wallet type', entry({ walletType: 'hardware' }), 'VALIDATION_FAILED'],
    ['a long remark', entry({ remark: 'x'.repeat(101) }), 'VALIDATION_FAILED'],
  ])('refuses %s', async (_name, body, code) => {
    const a = await newUser(h);
    const res = await post(h, a, '/api/wallet/address-book', body);
    expect(res.json().code).toBe(code);
    expect(res.statusCode).toBe(400);
  });

  it('refuses a duplicate address and more than the limit', async () => {
    const a = await newUser(h);
    expect((await post(h, a, '/api/wallet/address-book', entry())).statusCode).toBe(201);
    expect((await post(h, a, '/api/wallet/address-book', entry({ name: 'Again' }))).statusCode).toBe(409);
    const at = new Date();
    await h.db
      .insertInto('address_book')
      .values(
        Array.from({ length: ADDRESS_BOOK_LIMIT - 1 }, (_, i) => ({
          user_id: a.user.id,
          name: `n${i}`,
          wallet_type: 'other',
          network: 'ethereum',
          address: `0x${i.toString(16).padStart(40, '0')}`,
          remark: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const full = await post(h, a, '/api/wallet/address-book', entry({ address: 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9' }));
    expect(full.json().code).toBe('ADDRESS_BOOK_FULL');
  });
});
