import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Address, erc20Abi, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../contracts/test-token.json' with { type: 'json' };
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner } from './signer.ts';
import { approvedWithdrawal } from './test-helpers.ts';

/**
 * Issue 37, item 6: a receipt settles a withdrawal only once it has the network's confirmations. Here a
 * USDT withdrawal reverts on one branch (the hot wallet holds too few tokens), a reorg (anvil snapshot
 * and revert) drops that block, and on the other branch the same signed bytes succeed: the user must
 * not have been unlocked in between (paid twice), and the withdrawal settles once, as paid.
 */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });
const USDT_UNIT = 1_000_000n; // 6 decimals on the local ethereum chain and in the ledger
const AMOUNT = 2_000_000n * USDT_UNIT; // more than the hot wallet's 1,000,000 test USDT
const FEE = 5n * USDT_UNIT;
const TO = '0x00000000000000000000000000000000000c0f1e' as Address;

describe('signer settles only confirmed receipts (anvil, reorg by snapshot)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;

  beforeAll(async () => {
    let dataDir: string;
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-signer-confirm-', hot.address));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    await client.setAutomine(false);
  }, 120_000);
  afterAll(() => chains?.stop());

  const withdrawal = (id: string) =>
    database.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a reverted receipt re-included as a success after a reorg: nothing unlocked early, settled once as paid', async () => {
    const token = runtime.tokens.USDT as Address;
    const w = await approvedWithdrawal(database.db, {
      coin: 'USDT',
      network: 'ethereum',
      to: TO,
      amountMinor: AMOUNT,
      feeMinor: FEE,
      idempotencyKey: 'confirm-1',
    });
    const s = createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      confirmations: () => 3,
    });
    const beforeReorg = await client.snapshot();
    expect((await s.tick()).signed).toBe(1);
    const [attempt] = await database.db
      .selectFrom('signer_transactions')
      .selectAll()
      .where('withdrawal_id', '=', w.id)
      .execute();
    const hash = attempt?.tx_hash as Hex;
    await client.mine({ blocks: 1 });
    expect((await client.getTransactionReceipt({ hash })).status).toBe('reverted');
    const early = await s.tick();
    expect(early).toMatchObject({ settled: 0, failed: 0, awaitingConfirmations: 1 });
    expect((await withdrawal(w.id)).state).toBe('transfer_in_progress');
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'USDT')).toBe(AMOUNT);

    // The reorg: the block with the reverted receipt is gone; on the new branch the hot wallet holds enough.
    await client.revert({ id: beforeReorg });
    await client.dropTransaction({ hash }).catch(() => undefined);
    const mint = await client.wallet.writeContract({
      address: token,
      abi: artifact.abi,
      functionName: 'mint',
      args: [hot.address, AMOUNT],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.mine({ blocks: 1 });
    expect((await client.getTransactionReceipt({ hash: mint })).status).toBe('success');
    await s.tick(); // no receipt any more: the recorded bytes are broadcast again
    await client.mine({ blocks: 3 });
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    expect((await s.tick()).settled).toBe(1);
    expect(await withdrawal(w.id)).toMatchObject({ state: 'transfer_successful', tx_hash: hash });
    expect(await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [TO] })).toBe(
      AMOUNT - FEE,
    );
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'USDT')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', w.userId, 'USDT')).toBe(0n);
    expect((await reconcile(database.db)).ok).toBe(true);
    expect((await s.tick()).settled).toBe(0);
  }, 120_000);

  it('broadcast_at is set only when a node took the bytes, never on a refused broadcast (issue 37, item 7)', async () => {
    const w = await approvedWithdrawal(database.db, {
      coin: 'ETH',
      network: 'ethereum',
      to: '0x00000000000000000000000000000000000c0f1f',
      amountMinor: 10n ** 17n,
      feeMinor: 10n ** 15n,
      idempotencyKey: 'confirm-2',
    });
    const s = createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
    });
    const balance = await client.getBalance({ address: hot.address });
    await client.setBalance({ address: hot.address, value: 1000n }); // too little for value + gas: refused
    await s.tick();
    const attempt = () =>
      database.db
        .selectFrom('signer_transactions')
        .selectAll()
        .where('withdrawal_id', '=', w.id)
        .executeTakeFirstOrThrow();
    const refused = await attempt();
    expect(refused.last_error).not.toBeNull();
    expect(refused.broadcast_at).toBeNull();

    await client.setBalance({ address: hot.address, value: balance });
    await s.tick(); // rebroadcast: accepted
    const accepted = await attempt();
    expect(accepted.last_error).toBeNull();
    expect(accepted.broadcast_at).not.toBeNull();
  }, 60_000);
});
