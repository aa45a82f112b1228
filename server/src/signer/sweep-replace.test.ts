import { type Address, erc20Abi, type Hex, parseEther, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../contracts/test-token.json' with { type: 'json' };
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { createEvmWatcher } from '../modules/chain/evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { custodyCheck, custodyLines } from '../modules/custody/custody-check.ts';
import { depositAddressFor } from '../modules/deposits/addresses.ts';
import { LeaseLostError } from '../modules/leases/lease.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { createUser } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';
import { bumpFee, createSigner, type SignerOptions } from './signer.ts';
import { sweepKeys } from './test-helpers.ts';

const { hot, xpub } = sweepKeys;
const USDT = 10n ** 6n;
const WAIT_MS = 60_000;

/** Fee-bumped replacements of stuck top-ups and sweeps (migration 0039), on a real anvil that mines on demand. */
describe('stuck sweeps', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;
  let clock = Date.now();

  beforeAll(async () => {
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-stuck-sweeps-', hot.address));
  }, 120_000);
  afterAll(() => chains?.stop());

  const signer = (extra: Partial<SignerOptions> = {}) =>
    createSigner({
      db: database.db,
      now: () => new Date(clock),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      depositAccount: sweepKeys.depositAccount,
      sweepIntervalMs: 0,
      replaceAfterMs: WAIT_MS,
      maxReplacements: 2,
      ...extra,
    });
  const rowOf = (address: string) =>
    database.db.selectFrom('sweep_transactions').selectAll().where('deposit_address', '=', address).execute();
  const attemptsOf = (sweepId: string) =>
    database.db.selectFrom('sweep_attempts').selectAll().where('sweep_id', '=', sweepId).orderBy('attempt').execute();
  const priceOf = (raw: string) => parseTransaction(raw as Hex).gasPrice ?? 0n;

  async function credited(fund: (address: Address) => Promise<Hex>) {
    const db = database.db;
    const userId = await createUser(db);
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: await client.getBlockNumber() });
    await client.waitForTransactionReceipt({ hash: await fund(address) });
    await client.mine({ blocks: 8 });
    for (let i = 0; i < 60 && (await watcher.tick()).behind; i++);
    return { userId, address, watcher };
  }
  const sendEth = (to: Address, value: bigint) =>
    client.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value, chain: null });
  const mintUsdt = (to: Address, amount: bigint) =>
    client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [to, amount],
      account: DEV_ACCOUNT,
      chain: null,
    });

  it('replaces a stuck native sweep at >= 12.5% more gas, sending less by the extra gas, at most maxReplacements times; the mined one is booked', async () => {
    const db = database.db;
    const { address } = await credited((a) => sendEth(a, parseEther('2')));
    await client.setAutomine(false);
    try {
      const s = signer();
      await s.tick();
      const [row] = await rowOf(address);
      if (!row) throw new Error('no sweep recorded');
      expect(row.broadcast_at?.getTime()).toBe(clock);
      expect((await s.tick()).sweepsReplaced).toBe(0); // not due yet
      const results = [];
      for (let i = 0; i < 3; i++) {
        clock += WAIT_MS;
        results.push((await signer().tick()).sweepsReplaced);
      }
      expect(results).toEqual([1, 1, 0]); // the third waits: maxReplacements is 2

      const attempts = await attemptsOf(row.id);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
      let previous = { price: BigInt(row.gas_price_wei), amount: BigInt(row.chain_amount) };
      for (const a of attempts) {
        const price = BigInt(a.gas_price_wei);
        expect(price).toBeGreaterThanOrEqual(bumpFee(previous.price));
        expect(priceOf(a.raw_tx)).toBe(price);
        // The address pays its own gas: value + 21000 x price is its whole balance of 2 ETH.
        expect(BigInt(a.chain_amount)).toBe(previous.amount - 21_000n * (price - previous.price));
        expect(BigInt(a.chain_amount) + 21_000n * price).toBe(parseEther('2'));
        expect(parseTransaction(a.raw_tx as Hex).nonce).toBe(Number(row.nonce));
        previous = { price, amount: BigInt(a.chain_amount) };
      }

      await client.mine({ blocks: 1 });
      await signer().tick();
      const [settled] = await rowOf(address);
      const newest = attempts[1];
      expect(settled).toMatchObject({
        state: 'mined',
        mined_tx_hash: newest?.tx_hash,
        chain_amount: newest?.chain_amount,
      });
      expect(settled?.fee_wei).toBe((21_000n * previous.price).toString());
      await expect(client.getTransactionReceipt({ hash: row.tx_hash as Hex })).rejects.toThrow();
      expect(await client.getBalance({ address })).toBe(0n);
    } finally {
      await client.setAutomine(true);
    }
    expect(custodyLines(await custodyCheck(db, dataDir, {})).ok).toBe(true);
    expect((await reconcile(db)).ok).toBe(true);
  }, 120_000);

  it('a replaced gas top-up reaching the deposit address is never credited as a deposit', async () => {
    const db = database.db;
    const { userId, address, watcher } = await credited((a) => mintUsdt(a, 300n * USDT));
    await client.setAutomine(false);
    try {
      await signer().tick();
      const [topUp] = await rowOf(address);
      expect(topUp).toMatchObject({ kind: 'gas_topup', state: 'signed' });
      clock += WAIT_MS;
      expect((await signer().tick()).sweepsReplaced).toBe(1);
      await client.mine({ blocks: 8 });
      for (let i = 0; i < 60 && (await watcher.tick()).behind; i++);
      const [replacement] = await attemptsOf(topUp?.id ?? '0');
      expect(await client.getBalance({ address })).toBe(BigInt(replacement?.chain_amount ?? 0));
      await signer().tick();
      const [row] = await rowOf(address);
      expect(row).toMatchObject({ kind: 'gas_topup', state: 'mined', mined_tx_hash: replacement?.tx_hash });
    } finally {
      await client.setAutomine(true);
    }
    const deposits = await db.selectFrom('deposits').select('coin').where('user_id', '=', userId).execute();
    expect(deposits.map((d) => d.coin)).toEqual(['USDT']);
    expect(await balanceOf(db, 'user_available', userId, 'ETH')).toBe(0n);
    // The sweep follows the top-up; the hot wallet and the deposit addresses match their custody accounts.
    await signer().tick();
    await signer().tick();
    const usdt = await client.readContract({
      address: runtime.tokens.USDT as Address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    });
    expect(usdt).toBe(0n);
    expect(custodyLines(await custodyCheck(db, dataDir, {})).ok).toBe(true);
  }, 120_000);

  it('records no replacement above the fee cap, nor when its lease is lost; the recorded bytes are still rebroadcast', async () => {
    const { address } = await credited((a) => sendEth(a, parseEther('1')));
    await client.setAutomine(false);
    try {
      await signer().tick();
      const [row] = await rowOf(address);
      if (!row) throw new Error('no sweep recorded');
      clock += WAIT_MS;
      expect((await signer({ maxFeePerGasCapWei: BigInt(row.gas_price_wei) }).tick()).sweepsReplaced).toBe(0);
      const lost = signer({
        fence: async () => {
          throw new LeaseLostError('signer');
        },
      });
      await expect(lost.tick()).rejects.toBeInstanceOf(LeaseLostError);
      expect(await attemptsOf(row.id)).toEqual([]);
      const [after] = await rowOf(address);
      expect(after?.broadcast_count).toBe(row.broadcast_count + 1);
    } finally {
      await client.setAutomine(true);
    }
    await signer({ maxReplacements: 0 }).tick(); // rebroadcasts (automine: mined at once)
    await signer({ maxReplacements: 0 }).tick();
    const [settled] = await rowOf(address);
    expect(settled).toMatchObject({ state: 'mined', mined_tx_hash: settled?.tx_hash });
  }, 120_000);

  it('a native replacement pays its extra gas out of the booked coins, never from native coins no one credited', async () => {
    const db = database.db;
    const { address } = await credited((a) => sendEth(a, parseEther('2')));
    // 0.5 ETH more arrives but is not credited (the watcher does not run again): not the book's.
    await client.waitForTransactionReceipt({ hash: await sendEth(address, parseEther('0.5')) });
    await client.setAutomine(false);
    try {
      await signer().tick();
      const [row] = await rowOf(address);
      if (!row) throw new Error('no sweep recorded');
      clock += WAIT_MS;
      expect((await signer().tick()).sweepsReplaced).toBe(1);
      const [a] = await attemptsOf(row.id);
      // Value + gas at the new price is the booked 2 ETH (before: the value stayed, the extra gas came from the 0.5).
      expect(BigInt(a?.chain_amount ?? 0) + 21_000n * BigInt(a?.gas_price_wei ?? 0)).toBe(parseEther('2'));
      await client.mine({ blocks: 1 });
      await signer().tick();
      expect((await rowOf(address))[0]?.state).toBe('mined');
    } finally {
      await client.setAutomine(true);
    }
    expect((await reconcile(db)).ok).toBe(true);
  }, 120_000);
});
