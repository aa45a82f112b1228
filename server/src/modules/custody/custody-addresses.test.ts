import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reserveLines } from '../por/reserves.ts';
import { depositAddressesOf } from './custody-addresses.ts';
import { custodyLines } from './custody-check.ts';

/**
 * The deposit addresses the custody and reserves checks read (review 37b, finding 1): every one, in
 * pages ordered by address, and past the overall bound the rest are counted as not read.
 */
describe('deposit addresses of a network', () => {
  const database = useTestDatabase();
  const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

  it('reads more addresses than one page, all of them, ordered, and counts those past the bound', async () => {
    const db = database.db;
    // Inserted out of order (one user each), on two networks: only ethereum's are listed.
    for (const i of [5, 1, 4, 2, 3, 7, 6]) {
      await db
        .insertInto('deposit_addresses')
        .values({ user_id: await createUser(db), network: 'ethereum', address: address(i), derivation_index: 1000 + i })
        .execute();
    }
    await db
      .insertInto('deposit_addresses')
      .values({ user_id: await createUser(db), network: 'bsc', address: address(99), derivation_index: 2000 })
      .execute();
    const all = await depositAddressesOf(db, 'ethereum', { pageSize: 2 });
    expect(all).toEqual({ addresses: [1, 2, 3, 4, 5, 6, 7].map(address), notRead: 0 });
    const cut = await depositAddressesOf(db, 'ethereum', { pageSize: 2, max: 5 });
    expect(cut).toEqual({ addresses: [1, 2, 3, 4, 5].map(address), notRead: 2 });
    const exact = await depositAddressesOf(db, 'ethereum', { pageSize: 3, max: 7 });
    expect(exact).toEqual({ addresses: [1, 2, 3, 4, 5, 6, 7].map(address), notRead: 0 });
  });

  it('says loudly that addresses were not read, and does not call a partial sum covered or short', () => {
    const deposits = [{ asset: 'USDT@ethereum', chain: 1n, book: 5n }];
    const custody = custodyLines([{ network: 'ethereum', notRead: 3, hot: [], deposits }]);
    expect(custody.ok).toBe(false);
    expect(custody.lines.join('\n')).toContain('ethereum: 3 deposit address(es) NOT READ');
    expect(custody.lines.join('\n')).not.toContain('SHORT');
    const row = { asset: 'USDT', reservesMinor: 1n, liabilitiesMinor: 1n, networks: ['ethereum'] };
    const reserves = reserveLines({ rows: [row], unreachable: [], notRead: [{ network: 'ethereum', count: 3 }] });
    expect(reserves.lines.join('\n')).toContain('3 deposit address(es) on ethereum NOT READ');
  });
});
