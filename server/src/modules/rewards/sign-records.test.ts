import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { checkInConfirmationsOf } from './sign-repository.ts';

/** Issue 36, item 8: a check-in counts at the network's deposit confirmations, once per transaction. */
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');

describe('sign records', () => {
  it('wait for the network deposit confirmations (6 Ethereum, 64 BSC), or more when configured', () => {
    const config = rewardsConfigFromEnv({});
    expect(checkInConfirmationsOf(config, 'ethereum')).toBe(6);
    expect(checkInConfirmationsOf(config, 'bsc')).toBe(64);
    expect(checkInConfirmationsOf(rewardsConfigFromEnv({ CHECKIN_CONFIRMATIONS: '100' }), 'bsc')).toBe(100);
  });

  it('the same transaction re-mined at another log index (after UTC midnight) is not a second sign', async () => {
    const userId = await createUser(database.db);
    const row = (day: string, logIndex: number) => ({
      user_id: userId,
      day,
      network: 'ethereum',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      tx_hash: `0x${'9'.repeat(64)}`,
      log_index: logIndex,
      block_number: String(10 + logIndex),
      block_hash: `0x${String(logIndex).repeat(64)}`,
      state: 'seen' as const,
      asset: 'USDT',
      reward_minor: '0',
      seen_at: at,
    });
    await database.db.insertInto('sign_records').values(row('2030-01-01', 0)).execute();
    const again = await database.db
      .insertInto('sign_records')
      .values(row('2030-01-02', 3))
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    expect(Number(again.numInsertedOrUpdatedRows ?? 0n)).toBe(0);
  });
});
