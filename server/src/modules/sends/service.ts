import { canonicalAddress, isValidAddress } from '@cw/shared-state/address';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ConflictError, NotFoundError } from '../../errors/app-error.ts';
import { assertAllowlisted, type Destination } from '../allowlist/policy.ts';
import { findAccountByEmail } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import { maskEmail, normalizeEmail } from '../auth/rules.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import { type NetworkCode, networkCodes } from '../catalogue/catalogue.ts';
import { ownerOfDepositAddress } from '../deposits/addresses.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { internalSend } from '../ledger/operations.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import { assertNotFrozen } from '../security/freeze-state.ts';
import { assertWithinOutflowBudget, lockOutflows, type OutflowBudget } from '../withdrawals/outflow-budget.ts';
import { assertNotHeld, assertOutflowAllowed } from '../withdrawals/outflow-holds.ts';
import { availableOf } from '../withdrawals/service.ts';
import { verifyWalletAction } from '../withdrawals/verification.ts';
import { findSend, findSendByKey, insertSend, type NewSend, type SendRow } from './repository.ts';
import type { CreateSendBody, RecipientCheck, RecipientQuery, Send } from './schemas.ts';

export interface SendsService {
  /** Checks a recipient as the form is filled, before any code is sent: exists, is not the sender. */
  checkRecipient(userId: string, input: RecipientQuery): Promise<RecipientCheck>;
  create(client: Client, userId: string, input: CreateSendBody): Promise<Send>;
  get(userId: string, id: string): Promise<Send>;
}

export function toSend(row: SendRow, viewerId: string): Send {
  const out = row.from_user_id === viewerId;
  return {
    id: row.id,
    direction: out ? 'out' : 'in',
    coin: row.coin,
    amountMinor: row.amount_minor,
    recipientKind: row.recipient_kind,
    recipient: out ? row.recipient : null,
    network: row.network,
    createdAt: row.created_at.toISOString(),
  };
}

const exceedsAvailable = () => new AppError('AMOUNT_EXCEEDS_AVAILABLE', 'Exceeds the maximum available');

/**
 * Sends between users of the service: one ledger transfer, instant, no fee. A send counts in the USD
 * review budget it shares with withdrawals (withdrawals/outflow-budget.ts); having no review step, a
 * send that would exceed it is refused (OUTFLOW_REVIEW_LIMIT) and nothing moves.
 */
export function createSendsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  codes: VerificationCodes;
  fundPassword: FundPasswordService;
  budget: OutflowBudget;
  factors: SecondFactors;
}): SendsService {
  const { db, now } = deps;

  async function resolveRecipient(
    input: RecipientQuery,
  ): Promise<{ toUserId: string; recipient: string; network: NetworkCode | null }> {
    if (input.recipientKind === 'email') {
      const email = normalizeEmail(input.recipient);
      const toUserId = (await findAccountByEmail(db, email))?.user_id;
      if (!toUserId) throw new AppError('RECIPIENT_NOT_FOUND', 'No user with this e-mail');
      return { toUserId, recipient: email, network: null };
    }
    // A deposit address names its network by its form; the user need not pick one (EVM addresses
    // look alike on ethereum and bsc, so each network it could be is asked, in catalogue order).
    const candidates = input.network ? [input.network] : networkCodes.filter((n) => isValidAddress(n, input.recipient));
    if (candidates.length === 0 || !candidates.every((n) => isValidAddress(n, input.recipient)))
      throw new AppError('ADDRESS_INVALID', 'Address invalid or mismatched with the network');
    for (const network of candidates) {
      const address = canonicalAddress(network, input.recipient);
      const toUserId = await ownerOfDepositAddress(db, network, address);
      if (toUserId) return { toUserId, recipient: address, network };
    }
    throw new AppError('RECIPIENT_NOT_FOUND', 'No user owns this deposit address');
  }

  async function checkedRecipient(userId: string, input: RecipientQuery) {
    const found = await resolveRecipient(input);
    if (found.toUserId === userId) throw new AppError('SEND_TO_SELF', 'A send goes to another user');
    return found;
  }

  return {
    async checkRecipient(userId, input) {
      const found = await checkedRecipient(userId, input);
      return {
        recipientKind: input.recipientKind,
        // Enough to recognise the person, not to learn their address book: the e-mail masked.
        recipient: input.recipientKind === 'email' ? maskEmail(found.recipient) : found.recipient,
        network: found.network,
      };
    },

    async create(client, userId, input) {
      const { toUserId, recipient, network } = await checkedRecipient(userId, input);
      const amountMinor = BigInt(input.amountMinor);
      const coin = input.coin;

      /** The send this key already made (the same one, or IDEMPOTENCY_KEY_REUSED), if any. */
      const earlierSend = async (q: Kysely<Database>) => {
        const earlier = await findSendByKey(q, userId, input.idempotencyKey);
        if (!earlier) return undefined;
        const same =
          earlier.to_user_id === toUserId && earlier.coin === coin && earlier.amount_minor === input.amountMinor;
        if (!same) throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key already names another send');
        return earlier;
      };
      const earlier = await earlierSend(db);
      if (earlier) return toSend(earlier, userId);
      await assertOutflowAllowed(db, userId, now());
      // A send by e-mail names no address: with the allowlist on it is refused (no entry can match it).
      const destination: Destination = network ? { network, address: recipient } : null;
      await assertAllowlisted(db, userId, destination, now());
      if (amountMinor > (await availableOf(db, userId, coin))) throw exceedsAvailable();

      let code: Awaited<ReturnType<typeof verifyWalletAction>>;
      try {
        code = await verifyWalletAction(deps, client, userId, input, 'transfer');
      } catch (err) {
        // A double submit: the first used the code up meanwhile. The retry gets the first's answer.
        const raced = await earlierSend(db);
        if (raced) return toSend(raced, userId);
        throw err;
      }
      const valueUsdCents = deps.budget.valueUsdCents(coin, amountMinor);
      const row = await db.transaction().execute(async (trx) => {
        // Under the outflow lock, the key first: a retry that waited on the lock for the first
        // request must get its send back, not be counted against itself (OUTFLOW_REVIEW_LIMIT).
        await lockOutflows(trx, userId);
        // Again under the lock a freeze also takes: a freeze committed since the check above wins.
        await assertNotFrozen(trx, userId, now());
        await assertNotHeld(trx, userId);
        const made = await earlierSend(trx);
        if (made) return made;
        await assertAllowlisted(trx, userId, destination, now());
        const valued = await assertWithinOutflowBudget(trx, deps.budget, userId, valueUsdCents, now());
        const placed = await placeSend(
          trx,
          {
            fromUserId: userId,
            toUserId,
            idempotencyKey: input.idempotencyKey,
            coin,
            amountMinor,
            recipientKind: input.recipientKind,
            recipient,
            network,
            valueUsdCents: valued,
          },
          now(),
        );
        if (placed) await deps.codes.consume(trx, code);
        return placed;
      });
      if (row) return toSend(row, userId);
      const raced = await findSendByKey(db, userId, input.idempotencyKey);
      if (!raced) throw new ConflictError('Send vanished after an idempotency conflict');
      return toSend(raced, userId);
    },

    async get(userId, id) {
      const row = await findSend(db, id);
      if (!row || (row.from_user_id !== userId && row.to_user_id !== userId)) throw new NotFoundError('No such send');
      return toSend(row, userId);
    },
  };
}

/**
 * The money part of a send, in the caller's transaction: one internal_send ledger transfer (keyed on the
 * sender and the request's key, so a retry posts nothing) and the send record. Undefined when the
 * record already exists (a concurrent retry did the work).
 */
export async function placeSend(
  trx: Transaction<Database>,
  s: Omit<NewSend, 'ledgerTransferId'>,
  at: Date,
): Promise<SendRow | undefined> {
  let transferId: string;
  try {
    const posted = await internalSend(
      trx,
      {
        idempotencyKey: `send:${s.fromUserId}:${s.idempotencyKey}`,
        fromUserId: s.fromUserId,
        toUserId: s.toUserId,
        asset: s.coin,
        amountMinor: s.amountMinor,
        metadata: { recipientKind: s.recipientKind },
      },
      at,
    );
    transferId = posted.transfer.id;
  } catch (err) {
    if (err instanceof InsufficientBalanceError) throw exceedsAvailable();
    throw err;
  }
  return insertSend(trx, { ...s, ledgerTransferId: transferId }, at);
}
