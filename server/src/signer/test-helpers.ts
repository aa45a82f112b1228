import { mnemonicToSeedSync } from '@scure/bip39';
import type { Kysely } from 'kysely';
import { mnemonicToAccount } from 'viem/accounts';
import type { Database } from '../db/schema.ts';
import type { CoinCode } from '../modules/catalogue/catalogue.ts';
import { accountXpubFromSeed } from '../modules/chain/derive.ts';
import { creditDeposit, lockFunds } from '../modules/ledger/operations.ts';
import { insertWithdrawal } from '../modules/withdrawals/repository.ts';
import { approveForTest } from '../modules/withdrawals/test-helpers.ts';
import { createUser } from '../test/app.ts';
import { depositKeys } from './deposit-keys.ts';

/** Tests only: a new user credited `amountMinor` of the coin, with it in an approved withdrawal to `to`. */
export async function approvedWithdrawal(
  db: Kysely<Database>,
  o: {
    coin: CoinCode;
    network: 'ethereum' | 'bsc';
    to: string;
    amountMinor: bigint;
    feeMinor: bigint;
    idempotencyKey: string;
  },
): Promise<{ userId: string; id: string }> {
  const userId = await createUser(db);
  const { coin, amountMinor } = o;
  const id = await db.transaction().execute(async (trx) => {
    const at = new Date();
    await creditDeposit(trx, { idempotencyKey: `dep:${userId}`, userId, asset: coin, amountMinor }, at);
    const w = await insertWithdrawal(
      trx,
      {
        userId,
        idempotencyKey: o.idempotencyKey,
        coin,
        network: o.network,
        address: o.to,
        amountMinor,
        feeMinor: o.feeMinor,
      },
      at,
    );
    if (!w) throw new Error('not inserted');
    await lockFunds(trx, { idempotencyKey: `withdrawal:${w.id}:lock`, userId, asset: coin, amountMinor }, at);
    await approveForTest(trx, w.id, at);
    return w.id;
  });
  return { userId, id };
}

const SWEEP_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** Tests only: the sweep tests' keys, from one test mnemonic: the hot wallet, the deposit xpub and the deposit keys. */
export const sweepKeys = {
  hot: mnemonicToAccount(SWEEP_MNEMONIC, { accountIndex: 1 }),
  xpub: accountXpubFromSeed(mnemonicToSeedSync(SWEEP_MNEMONIC), 'ethereum'),
  depositAccount: depositKeys(SWEEP_MNEMONIC),
};
