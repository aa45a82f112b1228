import { canonicalAddress, isValidAddress } from '@cw/shared-state/address';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { assertAllowlisted } from '../allowlist/policy.ts';
import type { Client } from '../auth/client.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import { type CoinCode, findCoinNetwork } from '../catalogue/catalogue.ts';
import type { ChainsProvider } from '../catalogue/chains-file.ts';
import type { PlatformAddresses } from '../catalogue/platform-addresses.ts';
import { runtimePair } from '../catalogue/runtime.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { assert } from '../ledger/model.ts';
import { lockFunds } from '../ledger/operations.ts';
import { userBalances } from '../ledger/repository.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import { assertNotFrozen } from '../security/freeze-state.ts';
import { createOutflowBudget, lockOutflows, type OutflowBudget, outflowSpentUsdCents } from './outflow-budget.ts';
import { assertNotHeld, assertOutflowAllowed } from './outflow-holds.ts';
import {
  findByKey,
  findWithdrawal,
  insertWithdrawal,
  type NewWithdrawal,
  transition,
  type WithdrawalRow,
  withdrawnSince,
} from './repository.ts';
import { AUTO_REVIEW_WINDOW_MS, type AutoReviewLimits } from './review-policy.ts';
import type { CreateWithdrawalBody, Withdrawal } from './schemas.ts';
import { userVisibleState } from './state-machine.ts';
import { verifyWalletAction } from './verification.ts';

type Trx = Transaction<Database>;

export interface WithdrawalsService {
  create(client: Client, userId: string, input: CreateWithdrawalBody): Promise<Withdrawal>;
  get(userId: string, id: string): Promise<Withdrawal>;
}

export interface WithdrawalsDeps {
  db: Kysely<Database>;
  now: () => Date;
  codes: VerificationCodes;
  fundPassword: FundPasswordService;
  factors: SecondFactors;
  chains: ChainsProvider;
  autoReviewLimits: AutoReviewLimits;
  /** The USD budget withdrawals and sends share; default one without prices (every withdrawal reviewed). */
  outflowBudget?: OutflowBudget;
  /** False when no signer process runs: withdrawals are then refused (WITHDRAW_DISABLED). */
  signerRunning: boolean;
  /** The platform's own addresses (hot wallets, token contracts, order deposit addresses): refused as targets. */
  platform?: PlatformAddresses;
}

export function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    coin: row.coin,
    network: row.network,
    address: row.address,
    amountMinor: row.amount_minor,
    feeMinor: row.fee_minor,
    arrivalMinor: row.arrival_minor,
    state: userVisibleState(row.state),
    reason: row.reason,
    txHash: row.tx_hash,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const exceedsAvailable = () => new AppError('AMOUNT_EXCEEDS_AVAILABLE', 'Exceeds the maximum available');

/** Amount rules shared with sends: within [min, max] and at most the available balance. */
export async function availableOf(db: Kysely<Database>, userId: string, coin: CoinCode): Promise<bigint> {
  return (await userBalances(db, userId)).find((b) => b.asset === coin)?.availableMinor ?? 0n;
}

export function createWithdrawalsService(deps: WithdrawalsDeps): WithdrawalsService {
  const { db, now } = deps;
  // No prices: every withdrawal is weighed as unknown, so each waits for review.
  const budget = deps.outflowBudget ?? createOutflowBudget({ prices: null });

  function sameRequest(row: WithdrawalRow, input: CreateWithdrawalBody, address: string): boolean {
    return (
      row.coin === input.coin &&
      row.network === input.network &&
      row.address === address &&
      row.amount_minor === input.amountMinor
    );
  }

  return {
    async create(client, userId, input) {
      const pair = findCoinNetwork(input.coin, input.network);
      if (!pair)
        throw new ValidationError(`${input.coin} is not on ${input.network}`, [
          { field: 'network', message: 'not a network of this coin', rule: 'pair' },
        ]);
      if (!isValidAddress(input.network, input.address))
        throw new AppError('ADDRESS_INVALID', 'Address invalid or mismatched with the network');
      const address = canonicalAddress(input.network, input.address);
      if (await deps.platform?.has(pair.network, address))
        throw new AppError('ADDRESS_INVALID', 'This address belongs to the platform; coins sent there would be lost');

      // A retry of a request that already went through: the same answer, no second effect
      // (its e-mail code is used up, so it must not be asked for again).
      const earlier = await findByKey(db, userId, input.idempotencyKey);
      if (earlier) {
        if (!sameRequest(earlier, input, address))
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key already names another withdrawal');
        return toWithdrawal(earlier);
      }

      if (!runtimePair(pair, deps.chains(), deps.signerRunning).withdrawEnabled)
        throw new AppError('WITHDRAW_DISABLED', `Withdrawals of ${pair.coin} on ${pair.network} are not enabled`);
      await assertOutflowAllowed(db, userId, now());
      const destination = { network: pair.network, address };
      // Before the e-mail code is spent, for a clear answer; again below under the outflow lock.
      await assertAllowlisted(db, userId, destination, now());
      const amountMinor = BigInt(input.amountMinor);
      if (amountMinor < pair.withdrawMinMinor) throw new AppError('AMOUNT_BELOW_MINIMUM', 'Below minimum limit');
      if (amountMinor > pair.withdrawMaxMinor) throw new AppError('AMOUNT_ABOVE_MAXIMUM', 'Exceeds maximum limit');
      if (amountMinor > (await availableOf(db, userId, pair.coin))) throw exceedsAvailable();

      const code = await verifyWalletAction(deps, client, userId, input, 'withdraw');

      const row = await db.transaction().execute(async (trx) => {
        // Under the lock allowlist changes take too: a toggle or untrust cannot slip between check and booking.
        await lockOutflows(trx, userId);
        await assertAllowlisted(trx, userId, destination, now());
        const placed = await placeWithdrawal(
          trx,
          {
            userId,
            idempotencyKey: input.idempotencyKey,
            coin: pair.coin,
            network: pair.network,
            address,
            amountMinor,
            feeMinor: pair.withdrawFeeMinor,
          },
          deps.autoReviewLimits[pair.coin],
          now(),
          budget,
        );
        if (placed) await deps.codes.consume(trx, code);
        return placed;
      });
      if (row) return toWithdrawal(row);
      const raced = await findByKey(db, userId, input.idempotencyKey);
      if (!raced) throw new ConflictError('Withdrawal vanished after an idempotency conflict');
      return toWithdrawal(raced);
    },

    async get(userId, id) {
      const row = await findWithdrawal(db, id);
      if (!row || row.user_id !== userId) throw new NotFoundError('No such withdrawal');
      return toWithdrawal(row);
    },
  };
}

/**
 * The money part of a withdrawal, in the caller's transaction: insert it in_review, lock the amount
 * (AMOUNT_EXCEEDS_AVAILABLE when the balance is short), then approve it automatically when the user's
 * withdrawals of the coin in the last 24 hours stay within `autoReviewLimitMinor` and, given a `budget`,
 * all its withdrawals and sends of the last 24 hours stay within the USD budget (outflow-budget.ts).
 * Undefined when the idempotency key was already used (a concurrent retry did the work).
 */
export async function placeWithdrawal(
  trx: Trx,
  w: NewWithdrawal,
  autoReviewLimitMinor: bigint,
  at: Date,
  budget?: OutflowBudget,
): Promise<WithdrawalRow | undefined> {
  assert(w.feeMinor >= 0n && w.feeMinor < w.amountMinor, '0 <= fee < amount');
  await lockOutflows(trx, w.userId);
  // Under the lock a freeze takes too (security/freeze.ts): either the freeze sees this withdrawal
  // and cancels it, or this sees the freeze.
  await assertNotFrozen(trx, w.userId, at);
  await assertNotHeld(trx, w.userId);
  const valueUsdCents = budget ? budget.valueUsdCents(w.coin, w.amountMinor) : null;
  const valued = valueUsdCents === null ? w : { ...w, valueUsdCents };
  const inserted = await insertWithdrawal(trx, valued, at);
  if (!inserted) return undefined;
  try {
    await lockFunds(
      trx,
      {
        idempotencyKey: `withdrawal:${inserted.id}:lock`,
        userId: w.userId,
        asset: w.coin,
        amountMinor: w.amountMinor,
        metadata: { withdrawalId: inserted.id },
      },
      at,
    );
  } catch (err) {
    if (err instanceof InsufficientBalanceError) throw exceedsAvailable();
    throw err;
  }
  const windowTotal = await withdrawnSince(trx, w.userId, w.coin, new Date(at.getTime() - AUTO_REVIEW_WINDOW_MS));
  if (windowTotal > autoReviewLimitMinor) return inserted;
  if (budget) {
    // Not valued (no price now), or an earlier outflow not valued: an operator weighs it instead.
    if (valueUsdCents === null) return inserted;
    const spent = await outflowSpentUsdCents(trx, budget, w.userId, at);
    if (spent === null || spent > budget.budgetUsdCents) return inserted;
  }
  return transition(trx, inserted.id, 'in_review', 'review_approved', { review: 'auto' }, at);
}
