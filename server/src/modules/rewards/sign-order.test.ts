import { encodeAbiParameters, encodeEventTopics, type Log } from 'viem';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { checkedInEvent } from './check-in-abi.ts';
import { checkInObserver } from './check-in-observer.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';

/**
 * Issue 36, item 10: a sign's reward does not depend on the order in which networks confirm (a day
 * waits for an earlier day still seen on another network), and every check-in event is kept, one per
 * day chosen at confirmation: when the first one seen is reorged out, the user's other check-in of
 * that day counts. Driven through the check-in observer with `CheckedIn` logs, as the watcher does.
 */
const database = useTestDatabase();
const config = rewardsConfigFromEnv({ REWARDS_SCHEDULE: '0.1,0.2,0.3', REWARDS_SEED_POOL: '0' });
const at = new Date('2031-05-10T12:00:00.000Z');
const DAY_NUMBER = BigInt(Math.floor(at.getTime() / 86_400_000));
const day = (n: bigint) => new Date(Number(n) * 86_400_000).toISOString().slice(0, 10);
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const FAR = 10_000n; // a verified height far above every test block: everything has its confirmations
let n = 0;

const observers = {
  ethereum: checkInObserver({ network: 'ethereum', contract: `0x${'e'.repeat(40)}`, config }),
  bsc: checkInObserver({ network: 'bsc', contract: `0x${'b'.repeat(40)}`, config }),
};

async function tagOf(userId: string): Promise<string> {
  n += 1;
  const tag = `0x${n.toString(16).padStart(64, '7')}`;
  await database.db.insertInto('member_tags').values({ user_id: userId, tag, created_at: at }).execute();
  return tag;
}

/** One `CheckedIn` log of `tag` for contract day `dayNumber`, at `block` of `network`. */
async function checkIn(network: EvmNetwork, tag: string, dayNumber: bigint, block: bigint) {
  n += 1;
  const log = {
    address: `0x${'e'.repeat(40)}`,
    topics: encodeEventTopics({
      abi: [checkedInEvent],
      eventName: 'CheckedIn',
      args: { wallet: WALLET, memberTag: tag as `0x${string}` },
    }),
    data: encodeAbiParameters([{ type: 'uint64' }], [dayNumber]),
    blockNumber: block,
    blockHash: `0x${n.toString(16).padStart(64, 'c')}`,
    transactionHash: `0x${n.toString(16).padStart(64, 'd')}`,
    logIndex: 0,
    transactionIndex: 0,
    removed: false,
  } as unknown as Log;
  return database.db.transaction().execute((trx) => observers[network].record(trx, [log], at));
}

const confirm = (network: EvmNetwork) => observers[network].confirm(database.db, FAR, at);
const records = (userId: string) =>
  database.db
    .selectFrom('sign_records')
    .select(['day', 'network', 'state', 'reward_minor'])
    .where('user_id', '=', userId)
    .orderBy('day')
    .orderBy('network')
    .execute();

describe('sign rewards and the order networks confirm in', () => {
  it('day 2 confirmed on Ethereum before day 1 on BSC earns the same as in the other order', async () => {
    const rewards: string[][] = [];
    for (const order of [
      ['ethereum', 'bsc', 'ethereum'],
      ['bsc', 'ethereum'],
    ] as EvmNetwork[][]) {
      const userId = await createUser(database.db);
      const tag = await tagOf(userId);
      await checkIn('bsc', tag, DAY_NUMBER - 1n, 100n);
      await checkIn('ethereum', tag, DAY_NUMBER, 200n);
      for (const network of order) await confirm(network);
      const rows = await records(userId);
      expect(rows.map((r) => r.state)).toEqual(['confirmed', 'confirmed']);
      rewards.push(rows.map((r) => r.reward_minor));
    }
    expect(rewards).toEqual([
      ['100000', '200000'],
      ['100000', '200000'],
    ]);
  });

  it("keeps the user's second check-in of a day: when the first one seen is reorged out, the other counts", async () => {
    const userId = await createUser(database.db);
    const tag = await tagOf(userId);
    expect(await checkIn('ethereum', tag, DAY_NUMBER, 300n)).toBe(1);
    expect(await checkIn('bsc', tag, DAY_NUMBER, 400n)).toBe(1); // another wallet, another chain, same day
    await database.db.transaction().execute((trx) => observers.ethereum.dropAbove(trx, 299n, at));
    await confirm('ethereum');
    await confirm('bsc');
    expect(await records(userId)).toEqual([
      { day: day(DAY_NUMBER), network: 'bsc', state: 'confirmed', reward_minor: '100000' },
    ]);
  });

  it('two real check-ins of a day: one is confirmed (one reward), the other kept as superseded', async () => {
    const userId = await createUser(database.db);
    const tag = await tagOf(userId);
    await checkIn('ethereum', tag, DAY_NUMBER, 500n);
    await checkIn('bsc', tag, DAY_NUMBER, 600n);
    await confirm('bsc');
    await confirm('ethereum');
    expect(await records(userId)).toEqual([
      { day: day(DAY_NUMBER), network: 'bsc', state: 'confirmed', reward_minor: '100000' },
      { day: day(DAY_NUMBER), network: 'ethereum', state: 'superseded', reward_minor: '0' },
    ]);
    // A reorg deeper than the confirmations takes the confirmed one back: the kept one counts instead.
    await database.db.transaction().execute((trx) => observers.bsc.dropAbove(trx, 599n, at));
    await confirm('ethereum');
    expect(await records(userId)).toEqual([
      { day: day(DAY_NUMBER), network: 'ethereum', state: 'confirmed', reward_minor: '100000' },
    ]);
  });
});

describe('a reorg that revives a superseded check-in while another network confirms (review L1)', () => {
  it('never leaves a day with no confirmed and no seen check-in', async () => {
    const userId = await createUser(database.db);
    const tag = await tagOf(userId);
    await checkIn('bsc', tag, DAY_NUMBER, 700n);
    await confirm('bsc');
    // Seen on Ethereum after the BSC one was chosen, not yet confirmed there.
    await checkIn('ethereum', tag, DAY_NUMBER, 800n);
    // The reorg transaction takes the chosen BSC check-in back and revives superseded ones, and is
    // still open while Ethereum's confirm step looks at the day.
    let reorgDone!: () => void;
    const reorged = new Promise<void>((resolve) => {
      reorgDone = resolve;
    });
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => {
      commit = resolve;
    });
    const reorg = database.db.transaction().execute(async (trx) => {
      await observers.bsc.dropAbove(trx, 699n, at);
      reorgDone();
      await committing;
    });
    await reorged;
    const confirming = confirm('ethereum');
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await Promise.all([reorg, confirming]);
    await confirm('ethereum');
    expect(await records(userId)).toEqual([
      { day: day(DAY_NUMBER), network: 'ethereum', state: 'confirmed', reward_minor: '100000' },
    ]);
  });
});

describe('many check-ins waiting for an earlier day (review L2)', () => {
  it('a later ready check-in is confirmed past more than a batch (100) of waiting ones', async () => {
    const WAITING = 120;
    const rows = [];
    for (let i = 0; i < WAITING; i++) {
      const userId = await createUser(database.db);
      n += 1;
      // Yesterday seen (recently) on BSC, not confirmed there: today's Ethereum check-in waits for it.
      for (const [network, dayNumber, block] of [
        ['bsc', DAY_NUMBER - 1n, 900n],
        ['ethereum', DAY_NUMBER, 900n],
      ] as const) {
        rows.push({
          user_id: userId,
          day: day(dayNumber),
          network,
          address: WALLET,
          tx_hash: `0x${n.toString(16).padStart(62, 'f')}${network === 'bsc' ? 'b0' : 'e0'}`,
          log_index: 0,
          block_number: block.toString(),
          block_hash: `0x${n.toString(16).padStart(64, 'a')}`,
          state: 'seen' as const,
          asset: config.asset,
          reward_minor: '0',
          seen_at: at,
        });
      }
    }
    await database.db.insertInto('sign_records').values(rows).execute();
    // One user whose check-in of the same day, in a later block, waits for nothing.
    const ready = await createUser(database.db);
    await checkIn('ethereum', await tagOf(ready), DAY_NUMBER, 901n);
    expect(await confirm('ethereum')).toBe(1);
    expect(await records(ready)).toEqual([
      { day: day(DAY_NUMBER), network: 'ethereum', state: 'confirmed', reward_minor: '100000' },
    ]);
  });
});
