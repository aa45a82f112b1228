import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { accountXpubFromSeed } from '../chain/derive.ts';
import { createEvmWatcher } from '../chain/evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../chain/local-chains.ts';
import { startTestChain } from '../chain/test-chain.ts';
import { lockFunds } from '../ledger/operations.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { insertWithdrawal, listApprovedForSigning } from '../withdrawals/repository.ts';
import { approveForTest } from '../withdrawals/test-helpers.ts';
import { depositAddressFor } from './addresses.ts';
import { runReorgsCommand } from './ops-commands.ts';
import { withdrawalsFrozen } from './reorg-alerts.ts';

const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);

/** A reorg deeper than the confirmation count, on a real anvil (evm_snapshot / evm_revert). */
describe('deep reorg', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-deep-reorg-'));
  }, 120_000);
  afterAll(() => chains?.stop());

  async function caughtUp(w: ReturnType<typeof createEvmWatcher>) {
    for (let i = 0; i < 60; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }

  it('freezes the withdrawals of a user whose credited deposit left the chain, lists the alert, and lifts it on resolve', async () => {
    const db = database.db;
    const userId = await createUser(db);
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: 0n });
    await caughtUp(watcher);
    const snapshot = await client.snapshot();
    const hash = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: address,
      value: parseEther('3'),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    await client.mine({ blocks: 8 });
    await caughtUp(watcher);
    expect(await balanceOf(db, 'user_available', userId, 'ETH')).toBe(parseEther('3'));
    // Spends part of it: an approved withdrawal the signer would pay.
    const withdrawalId = await db.transaction().execute(async (trx) => {
      const at = new Date();
      const w = await insertWithdrawal(
        trx,
        {
          userId,
          idempotencyKey: 'deep-reorg',
          coin: 'ETH',
          network: 'ethereum',
          address: DEV_ACCOUNT,
          amountMinor: parseEther('1'),
          feeMinor: 2_000_000_000_000_000n,
        },
        at,
      );
      if (!w) throw new Error('not inserted');
      await lockFunds(
        trx,
        { idempotencyKey: `withdrawal:${w.id}:lock`, userId, asset: 'ETH', amountMinor: parseEther('1') },
        at,
      );
      await approveForTest(trx, w.id, at);
      return w.id;
    });
    const signable = async () =>
      (await listApprovedForSigning(db, ['ethereum'], 100, new Date())).some((w) => w.id === withdrawalId);
    expect(await signable()).toBe(true);

    // A longer fork without the deposit replaces 9 blocks: deeper than its 6 confirmations.
    await client.revert({ id: snapshot });
    await client.increaseTime({ seconds: 60 });
    await client.mine({ blocks: 20 });
    await caughtUp(watcher);

    const deposit = await db.selectFrom('deposits').selectAll().where('tx_hash', '=', hash).executeTakeFirstOrThrow();
    expect(deposit.state).toBe('successful'); // the credit stands until an operator decides
    expect(deposit.reorg_alert_id).not.toBeNull();
    expect(await withdrawalsFrozen(db, userId)).toBe(true);
    expect(await signable()).toBe(false);
    const lines: string[] = [];
    expect(await runReorgsCommand(db, ['list'], (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toContain(`${deposit.reorg_alert_id}\tethereum`);
    expect(lines.join('\n')).toContain('1 credited deposit(s)\t1 user(s) frozen');

    // Another fork below: the deposit is not alerted twice.
    const alerts = async () => (await db.selectFrom('reorg_alerts').select('id').execute()).length;
    const before = await alerts();
    const again = await client.snapshot();
    await client.mine({ blocks: 2 });
    await caughtUp(watcher);
    await client.revert({ id: again });
    await client.mine({ blocks: 5 });
    await caughtUp(watcher);
    expect(await alerts()).toBe(before);

    const out: string[] = [];
    expect(await runReorgsCommand(db, ['resolve', String(deposit.reorg_alert_id)], (l) => out.push(l))).toBe(2);
    expect(
      await runReorgsCommand(
        db,
        ['resolve', String(deposit.reorg_alert_id), '--note', 'debited by hand, ticket 42'],
        (l) => out.push(l),
      ),
    ).toBe(0);
    expect(await withdrawalsFrozen(db, userId)).toBe(false);
    expect(await signable()).toBe(true);
    expect(
      await runReorgsCommand(db, ['resolve', String(deposit.reorg_alert_id), '--note', 'again'], (l) => out.push(l)),
    ).toBe(1);
  }, 120_000);
});
