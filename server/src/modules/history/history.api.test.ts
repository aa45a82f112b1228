import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertWithdrawal } from '../withdrawals/repository.ts';
import {
  ETH_ADDRESS,
  fund,
  get,
  key,
  newUser,
  post,
  transferCode,
  useWalletHarness,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';

const h = useWalletHarness();

interface Item {
  type: string;
  id: string;
  direction: string;
  coin: string;
  createdAt: string;
  state: string;
  amountMinor: string;
}

describe('GET /api/wallet/history', () => {
  it('lists deposits, withdrawals and sends (both directions) newest first, with filters and a cursor', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 1_000_000_000n);
    // Deposits as the watcher records them (one below the minimum, one confirming).
    for (const [i, state] of (['failed', 'confirming'] as const).entries()) {
      h.clock.advance(60_000);
      await h.db
        .insertInto('deposits')
        .values({
          user_id: a.user.id,
          network: 'ethereum',
          coin: 'USDT',
          tx_hash: `0x${String(i).padStart(64, '0')}`,
          output_index: 0,
          from_address: null,
          to_address: ETH_ADDRESS,
          chain_amount: '1000000',
          amount_minor: '1000000',
          block_number: 1,
          block_hash: `0x${'1'.padStart(64, '0')}`,
          required_confirmations: 6,
          state,
          reason: state === 'failed' ? 'below_minimum' : null,
          created_at: h.clock.now(),
          updated_at: h.clock.now(),
          completed_at: null,
        })
        .execute();
    }
    for (let i = 0; i < 3; i++) {
      const code = await withdrawCode(h, a);
      const res = await post(h, a, '/api/wallet/withdrawals', {
        coin: 'USDT',
        network: 'ethereum',
        address: ETH_ADDRESS,
        amountMinor: '20000000',
        idempotencyKey: key(),
        emailCode: code,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (let i = 0; i < 2; i++) {
      const code = await transferCode(h, a);
      const res = await post(h, a, '/api/wallet/sends', {
        coin: 'USDT',
        amountMinor: '1000000',
        recipientKind: 'email',
        recipient: b.email,
        idempotencyKey: key(),
        emailCode: code,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await fund(h, b.user.id, 'ETH', 10n ** 18n);
    const back = await post(h, b, '/api/wallet/sends', {
      coin: 'ETH',
      amountMinor: '5',
      recipientKind: 'email',
      recipient: a.email,
      idempotencyKey: key(),
      emailCode: await transferCode(h, b),
    });
    expect(back.statusCode).toBe(201);

    const all = (await get(h, a, '/api/wallet/history?limit=50')).json();
    expect(all.items.map((i: Item) => i.type)).toEqual([
      'send',
      'send',
      'send',
      'withdrawal',
      'withdrawal',
      'withdrawal',
      'deposit',
      'deposit',
    ]);
    expect(all.items[0]).toMatchObject({ direction: 'in', coin: 'ETH', amountMinor: '5' });
    expect(all.items[1]).toMatchObject({ direction: 'out', address: b.email });
    expect(all.items[6]).toMatchObject({ state: 'confirming' });
    expect(all.nextCursor).toBeNull();
    const times = all.items.map((i: Item) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    // Pages of 3 walk the same list without gaps or repeats.
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const url: string = `/api/wallet/history?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const body = (await get(h, a, url)).json();
      seen.push(...body.items.map((i: Item) => `${i.type}:${i.id}`));
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(all.items.map((i: Item) => `${i.type}:${i.id}`));

    expect((await get(h, a, '/api/wallet/history?type=withdrawal')).json().items).toHaveLength(3);
    expect((await get(h, a, '/api/wallet/history?type=deposit')).json().items).toHaveLength(2);
    expect((await get(h, a, '/api/wallet/history?coin=ETH')).json().items).toHaveLength(1);
    expect((await get(h, b, '/api/wallet/history')).json().items).toHaveLength(3);
    const day = h.clock.now().toISOString().slice(0, 10);
    expect((await get(h, a, `/api/wallet/history?from=${day}&to=${day}`)).json().items).toHaveLength(8);
    expect((await get(h, a, '/api/wallet/history?from=2001-01-01&to=2001-01-31')).json().items).toHaveLength(0);
    // Instants are inclusive at both ends.
    const newest = all.items[0].createdAt;
    expect((await get(h, a, `/api/wallet/history?from=${newest}&to=${newest}`)).json().items).toHaveLength(1);
  });

  it("leaves exchange payouts and refunds to the exchange order's own history", async () => {
    const a = await newUser(h);
    for (const kind of ['payout', 'refund']) {
      await insertWithdrawal(
        h.db,
        {
          userId: a.user.id,
          idempotencyKey: `exchange:${randomUUID()}:${kind}`,
          coin: 'BNB',
          network: 'bsc',
          address: ETH_ADDRESS,
          amountMinor: 21_505_000_000_000_000n,
          feeMinor: 500_000_000_000_000n,
        },
        h.clock.now(),
      );
    }
    expect((await get(h, a, '/api/wallet/history')).json().items).toEqual([]);
    expect((await get(h, a, '/api/wallet/history?type=withdrawal&coin=BNB')).json().items).toEqual([]);
  });

  it.each([
    ['from after to', 'from=2030-02-01&to=2030-01-01', 'DATE_RANGE_INVALID'],
    ['from the day after to', 'from=2030-01-02&to=2030-01-01', 'DATE_RANGE_INVALID'],
    ['from an instant after to', 'from=2030-01-01T10:00:00Z&to=2030-01-01T09:59:59Z', 'DATE_RANGE_INVALID'],
    ['limit above 50', 'limit=51', 'VALIDATION_FAILED'],
    ['an unknown type', 'type=trade', 'VALIDATION_FAILED'],
    ['a forged cursor', 'cursor=bm90LWEtY3Vyc29y', 'VALIDATION_FAILED'],
    ['a malformed date', 'from=yesterday', 'VALIDATION_FAILED'],
  ])('refuses %s', async (_name, query, code) => {
    const a = await newUser(h);
    const res = await get(h, a, `/api/wallet/history?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(code);
  });
});
