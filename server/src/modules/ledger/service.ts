import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { coinCodes } from '../catalogue/catalogue.ts';
import type { PostResult } from './model.ts';
import {
  creditDeposit,
  type InternalSend,
  internalSend,
  lockFunds,
  settleWithdrawal,
  type UserMovement,
  unlockFunds,
  type WithdrawalSettlement,
} from './operations.ts';
import { userBalances } from './repository.ts';
import type { Balance } from './schemas.ts';

export interface LedgerService {
  /** Every catalogue coin, in catalogue order, with 0 where the user has no account yet. */
  balances(userId: string): Promise<Balance[]>;
  deposit(m: UserMovement): Promise<PostResult>;
  lock(m: UserMovement): Promise<PostResult>;
  unlock(m: UserMovement): Promise<PostResult>;
  settleWithdrawal(m: WithdrawalSettlement): Promise<PostResult>;
  send(m: InternalSend): Promise<PostResult>;
}

export interface LedgerServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
}

/** Each movement in its own transaction. Compose several atomically with the functions of operations.ts. */
export function createLedgerService({ db, now }: LedgerServiceDeps): LedgerService {
  const inTransaction =
    <A>(op: (trx: Transaction<Database>, args: A, at: Date) => Promise<PostResult>) =>
    (args: A) =>
      db.transaction().execute((trx) => op(trx, args, now()));
  return {
    async balances(userId) {
      const held = new Map((await userBalances(db, userId)).map((b) => [b.asset, b]));
      return coinCodes.map((asset) => ({
        asset,
        availableMinor: (held.get(asset)?.availableMinor ?? 0n).toString(),
        lockedMinor: (held.get(asset)?.lockedMinor ?? 0n).toString(),
      }));
    },
    deposit: inTransaction(creditDeposit),
    lock: inTransaction(lockFunds),
    unlock: inTransaction(unlockFunds),
    settleWithdrawal: inTransaction(settleWithdrawal),
    send: inTransaction(internalSend),
  };
}
