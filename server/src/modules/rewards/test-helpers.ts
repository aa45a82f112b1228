import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { bookPendingRewards } from './booker.ts';
import { type RewardsConfig, rewardForStreakDay } from './rewards-config.ts';

let txCounter = 0;

/**
 * A confirmed check-in of `userId` on `day`, as the watcher would record it (tests of what follows
 * a check-in; the chain side is tested on anvil in check-in-contract.test.ts). Then books it.
 */
export async function signedOn(
  db: Kysely<Database>,
  config: RewardsConfig,
  input: { userId: string; day: string; at: Date; address?: string; streakDay?: number },
): Promise<void> {
  txCounter++;
  await db
    .insertInto('sign_records')
    .values({
      user_id: input.userId,
      day: input.day,
      network: 'ethereum',
      address: input.address ?? '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      tx_hash: `0x${txCounter.toString(16).padStart(64, '0')}`,
      log_index: 0,
      block_number: String(txCounter),
      block_hash: `0x${txCounter.toString(16).padStart(64, 'b')}`,
      state: 'confirmed',
      asset: config.asset,
      reward_minor: rewardForStreakDay(config, input.streakDay ?? 1).toString(),
      seen_at: input.at,
      confirmed_at: input.at,
    })
    .execute();
  await bookPendingRewards(db, config, input.at);
}
