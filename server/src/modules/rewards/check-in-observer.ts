import { type Kysely, sql, type Transaction } from 'kysely';
import { decodeEventLog, getAddress, type Log } from 'viem';
import type { Database } from '../../db/schema.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmLogObserver } from '../chain/watcher.ts';
import { checkedInEvent } from './check-in-abi.ts';
import { dayFromNumber } from './days.ts';
import type { RewardsConfig } from './rewards-config.ts';
import { confirmSigns } from './sign-confirm.ts';
import { reverseUnclaimedAbove } from './sign-repository.ts';

/**
 * Check-ins seen on chain: a `CheckedIn` event whose member tag is one we issued becomes the user's
 * sign record for the event's UTC day ('seen'), confirmed at the network's deposit confirmations
 * (`checkInConfirmationsOf`; its reward set from the streak then, sign-confirm.ts). A second check-in
 * of the same user on the same day (another wallet, another chain) is kept too: one per day is chosen
 * at confirmation, so if the first seen is reorged out the other still counts (migration 0061). The
 * same transaction re-mined at another log index is not a second record (unique network + tx_hash,
 * migration 0041). Events with unknown tags (someone else's call) are ignored. A reorg takes back
 * check-ins above the fork, confirmed ones included while their reward is unclaimed.
 */
export function checkInObserver(options: {
  network: EvmNetwork;
  contract: `0x${string}`;
  config: RewardsConfig;
  onConfirmed?: () => void;
}): EvmLogObserver {
  const { network, config } = options;
  return {
    address: options.contract,
    event: checkedInEvent,
    async record(trx: Transaction<Database>, logs: readonly Log[], at: Date): Promise<number> {
      const events = logs.flatMap((l) => {
        const decoded = decodeEventLog({ abi: [checkedInEvent], data: l.data, topics: l.topics, strict: false });
        const { wallet, memberTag, day } = decoded.args;
        if (!wallet || !memberTag || day === undefined || l.transactionHash === null || l.logIndex === null) return [];
        return [{ log: l, wallet: getAddress(wallet), tag: memberTag.toLowerCase(), day: dayFromNumber(day) }];
      });
      if (events.length === 0) return 0;
      const owners = await trx
        .selectFrom('member_tags')
        .select(['tag', 'user_id'])
        .where(
          'tag',
          'in',
          events.map((e) => e.tag),
        )
        .execute();
      const userOf = new Map(owners.map((o) => [o.tag, o.user_id]));
      let recorded = 0;
      for (const e of events) {
        const userId = userOf.get(e.tag);
        if (!userId) continue;
        const inserted = await trx
          .insertInto('sign_records')
          .values({
            user_id: userId,
            day: e.day,
            network,
            address: e.wallet,
            tx_hash: e.log.transactionHash as string,
            log_index: e.log.logIndex as number,
            block_number: (e.log.blockNumber as bigint).toString(),
            block_hash: e.log.blockHash as string,
            state: 'seen',
            asset: config.asset,
            reward_minor: '0',
            seen_at: at,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        recorded += Number(inserted.numInsertedOrUpdatedRows ?? 0n);
      }
      return recorded;
    },
    async dropAbove(trx, forkBlock, at) {
      await trx
        .deleteFrom('sign_records')
        .where('network', '=', network)
        .where('state', 'in', ['seen', 'superseded'])
        .where('block_number', '>', forkBlock.toString())
        .execute();
      // Confirmed check-ins above the fork, like credited deposits: reversed while the reward is
      // unclaimed (its booking taken back from pending rewards; the day no longer counts); a claimed
      // one stays and is counted for the watcher's alert.
      const reversed = await reverseUnclaimedAbove(trx, network, forkBlock, at);
      const confirmedAbove = await trx
        .selectFrom('sign_records')
        .select(sql<string>`count(*)`.as('n'))
        .where('network', '=', network)
        .where('block_number', '>', forkBlock.toString())
        .executeTakeFirstOrThrow();
      return Number(confirmedAbove.n) + reversed;
    },
    async confirm(db: Kysely<Database>, verifiedHeight: bigint, at: Date): Promise<number> {
      const confirmed = await confirmSigns(db, { network, verifiedHeight, config, at });
      if (confirmed > 0) options.onConfirmed?.();
      return confirmed;
    },
  };
}
