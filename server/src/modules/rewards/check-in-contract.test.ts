import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BaseError, ContractFunctionRevertedError, getAddress, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/check-in.json' with { type: 'json' };
import { compileContract, contracts } from '../../../contracts/compile.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { type EvmChainRuntime, loadChainConfig } from '../chain/chain-config.ts';
import { createEvmWatcher } from '../chain/evm-watcher.ts';
import { devClient, type LocalChains, startLocalChains } from '../chain/local-chains.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { bookPendingRewards } from './booker.ts';
import { checkedInEvent } from './check-in-abi.ts';
import { checkInObserver } from './check-in-observer.ts';
import { dayFromNumber } from './days.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { seedRewardsPool } from './rewards-module.ts';
import { memberTagOf } from './sign-repository.ts';

/** anvil's second dev account (unlocked): a user's wallet. */
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const abi = artifact.abi;
/** Another wallet (impersonated on anvil). */
const OTHER = getAddress('0x00000000000000000000000000000000c0ffee01');

describe('CheckIn contract', () => {
  it('the committed check-in.json is what solc makes of CheckIn.sol (run contracts/compile.ts after editing)', () => {
    expect(JSON.parse(readFileSync(contracts.CheckIn.artifact, 'utf8'))).toEqual(compileContract('CheckIn'));
  }, 60_000);

  it('its CheckedIn event is the one the watcher decodes', () => {
    const event = abi.find((item) => item.type === 'event' && item.name === 'CheckedIn');
    const shape = (inputs: readonly { name?: string; type: string; indexed?: boolean }[] = []) =>
      inputs.map(({ name, type, indexed }) => ({ name, type, indexed: indexed ?? false }));
    expect(shape(event?.inputs)).toEqual(shape(checkedInEvent.inputs));
  });
});

describe('check-ins on a real anvil', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let contract: Hex;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-check-in-'));
    chains = await startLocalChains({ dataDir, networks: ['ethereum'], hotWallets: {} });
    const loaded = loadChainConfig(dataDir, {}).ethereum;
    if (!loaded?.checkInContract) throw new Error('no check-in contract deployed');
    runtime = loaded;
    contract = loaded.checkInContract;
    client = devClient(runtime.rpcUrl, runtime.chainId);
    await client.impersonateAccount({ address: OTHER });
    await client.setBalance({ address: OTHER, value: parseEther('1') });
  });
  afterAll(() => chains?.stop());

  const checkIn = (tag: Hex, from: Hex = WALLET) =>
    client.wallet.writeContract({
      address: contract,
      abi,
      functionName: 'checkIn',
      args: [tag],
      account: from,
      chain: null,
    });

  async function revertName(run: () => Promise<unknown>): Promise<{ name?: string; args?: readonly unknown[] }> {
    try {
      await run();
    } catch (err) {
      const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
      if (reverted instanceof ContractFunctionRevertedError) {
        return { name: reverted.data?.errorName, args: reverted.data?.args };
      }
      return { name: (err as Error).name };
    }
    return {};
  }

  it('one check-in a day per address, an event with the tag and the day; a second reverts with AlreadyCheckedIn(day)', async () => {
    const tag = `0x${'ab'.repeat(32)}` as Hex;
    const hash = await checkIn(tag);
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const logs = await client.getContractEvents({
      address: contract,
      abi: [checkedInEvent],
      eventName: 'CheckedIn',
      blockHash: receipt.blockHash,
    });
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const day = block.timestamp / 86_400n;
    expect(logs[0]?.args).toEqual({ wallet: WALLET, memberTag: tag, day });
    expect(await client.readContract({ address: contract, abi, functionName: 'checkedInToday', args: [WALLET] })).toBe(
      true,
    );
    const again = await revertName(() =>
      client.simulateContract({ address: contract, abi, functionName: 'checkIn', args: [tag], account: WALLET }),
    );
    expect(again).toEqual({ name: 'AlreadyCheckedIn', args: [day] });

    // The next UTC day it works again.
    await client.increaseTime({ seconds: 86_400 });
    await client.mine({ blocks: 1 });
    expect(await client.readContract({ address: contract, abi, functionName: 'checkedInToday', args: [WALLET] })).toBe(
      false,
    );
    const next = await client.waitForTransactionReceipt({ hash: await checkIn(tag) });
    expect(next.status).toBe('success');
  });

  it('accepts no value and moves no tokens', async () => {
    const third = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const;
    // Refused when estimated, or mined as reverted: either way no value stays with the contract.
    let status = 'refused';
    try {
      const hash = await client.wallet.sendTransaction({
        account: third,
        to: contract,
        value: parseEther('0.01'),
        chain: null,
      });
      status = (await client.waitForTransactionReceipt({ hash })).status;
    } catch {}
    expect(status).not.toBe('success');
    expect(await client.getBalance({ address: contract })).toBe(0n);
  });

  it("the watcher records a check-in for the tag's user, confirms it at N confirmations, and forgets one a reorg removed", async () => {
    const config = rewardsConfigFromEnv({ CHECKIN_CONFIRMATIONS: '3' });
    const userId = await createUser(database.db);
    const tag = (await memberTagOf(database.db, userId, () => `0x${'cd'.repeat(32)}`, new Date())) as Hex;
    const watcher = createEvmWatcher({
      db: database.db,
      runtime,
      startBlock: 0n,
      observers: [checkInObserver({ network: 'ethereum', contract, config })],
    });
    const catchUp = async () => {
      for (let i = 0; i < 50; i++) if (!(await watcher.tick()).behind) return;
    };
    await catchUp();
    const records = () =>
      database.db.selectFrom('sign_records').selectAll().where('user_id', '=', userId).orderBy('id').execute();

    // A check-in removed by a reorg before its confirmations is never counted.
    const snapshot = await client.snapshot();
    await client.increaseTime({ seconds: 86_400 });
    await checkIn(tag, OTHER);
    await catchUp();
    expect((await records()).map((r) => r.state)).toEqual(['seen']);
    await client.revert({ id: snapshot });
    await client.mine({ blocks: 6 });
    for (let i = 0; i < 10; i++) if (!(await watcher.tick()).behind) break;
    expect(await records()).toEqual([]);

    // A check-in that stays: seen, then confirmed with the first streak day's reward.
    await client.increaseTime({ seconds: 2 * 86_400 });
    const receipt = await client.waitForTransactionReceipt({
      hash: await checkIn(tag, OTHER),
    });
    await catchUp();
    expect((await records())[0]).toMatchObject({ state: 'seen', tx_hash: receipt.transactionHash });
    // CHECKIN_CONFIRMATIONS 3 is below Ethereum's deposit confirmations (6): those count.
    await client.mine({ blocks: 2 });
    await catchUp();
    expect((await records())[0]).toMatchObject({ state: 'seen' });
    await client.mine({ blocks: 3 });
    await catchUp();
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const [confirmed] = await records();
    expect(confirmed).toMatchObject({
      state: 'confirmed',
      day: dayFromNumber(block.timestamp / 86_400n),
      address: OTHER,
      reward_minor: config.scheduleMinor[0]?.toString(),
    });

    // The same user's tag from another wallet the same day: the contract allows it (another address),
    // the server keeps the event but counts one sign a day per user: once confirmable it is superseded.
    const second = await client.waitForTransactionReceipt({ hash: await checkIn(tag, WALLET) });
    expect(second.status).toBe('success');
    await client.mine({ blocks: 6 });
    await catchUp();
    const both = (await records()).map((r) => [r.address, r.state, r.reward_minor]);
    expect(both.sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [OTHER, 'confirmed', config.scheduleMinor[0]?.toString()],
      [WALLET, 'superseded', '0'],
    ]);
  });

  it('a confirmed, booked, unclaimed check-in above a fork is taken back (record and pending reward); the books reconcile', async () => {
    const config = rewardsConfigFromEnv({ REWARDS_SEED_POOL: '100' });
    await seedRewardsPool(database.db, config, new Date());
    const userId = await createUser(database.db);
    const tag = (await memberTagOf(database.db, userId, () => `0x${'ef'.repeat(32)}`, new Date())) as Hex;
    const watcher = createEvmWatcher({
      db: database.db,
      runtime,
      startBlock: await client.getBlockNumber(),
      observers: [checkInObserver({ network: 'ethereum', contract, config })],
    });
    const catchUp = async () => {
      for (let i = 0; i < 50; i++) if (!(await watcher.tick()).behind) return;
    };
    await catchUp();
    const records = () => database.db.selectFrom('sign_records').selectAll().where('user_id', '=', userId).execute();
    const snapshot = await client.snapshot();
    await client.increaseTime({ seconds: 5 * 86_400 });
    await checkIn(tag, OTHER);
    await client.mine({ blocks: 6 });
    await catchUp();
    expect((await records()).map((r) => r.state)).toEqual(['confirmed']);
    expect((await bookPendingRewards(database.db, config, new Date())).signs).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(database.db, 'user_rewards', userId, config.asset)).toBe(config.scheduleMinor[0]);

    // A reorg deeper than the confirmations drops the block that held it.
    await client.revert({ id: snapshot });
    await client.mine({ blocks: 10 });
    for (let i = 0; i < 20; i++) if (!(await watcher.tick()).behind) break;
    expect(await records()).toEqual([]);
    expect(await balanceOf(database.db, 'user_rewards', userId, config.asset)).toBe(0n);
    expect((await reconcile(database.db)).ok).toBe(true);
  });
});
