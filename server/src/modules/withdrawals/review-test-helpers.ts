import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { creditDeposit, lockFunds } from '../ledger/operations.ts';
import type { OperatorRole } from '../operators/roles.ts';
import type { DecidingOperator } from './four-eyes.ts';
import { insertWithdrawal, transition } from './repository.ts';
import type { WithdrawalState } from './state-machine.ts';

export const REVIEW_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/**
 * Test-only: a withdrawal of a (new, unless given) user with its amount credited and locked, as a
 * placed one is, in review (or moved on to `paid`: transfer_successful, for history fixtures).
 */
export async function reviewFixture(
  db: Kysely<Database>,
  o: {
    amountMinor: bigint;
    coin?: CoinCode;
    network?: NetworkCode;
    address?: string;
    userId?: string;
    at?: Date;
    paid?: boolean;
  },
): Promise<{ id: string; userId: string }> {
  const userId = o.userId ?? (await createUser(db));
  const coin = o.coin ?? 'USDT';
  const at = o.at ?? new Date();
  const id = await db.transaction().execute(async (trx) => {
    await creditDeposit(
      trx,
      { idempotencyKey: `fixture:${randomUUID()}`, userId, asset: coin, amountMinor: o.amountMinor },
      at,
    );
    const w = await insertWithdrawal(
      trx,
      {
        userId,
        idempotencyKey: randomUUID(),
        coin,
        network: o.network ?? 'ethereum',
        address: o.address ?? REVIEW_ADDRESS,
        amountMinor: o.amountMinor,
        feeMinor: 1n,
      },
      at,
    );
    if (!w) throw new Error('not inserted');
    await lockFunds(
      trx,
      { idempotencyKey: `withdrawal:${w.id}:lock`, userId, asset: coin, amountMinor: o.amountMinor },
      at,
    );
    if (o.paid) {
      let from: WithdrawalState = 'in_review';
      for (const to of ['review_approved', 'transfer_in_progress', 'transfer_successful'] as const) {
        await transition(
          trx,
          w.id,
          from,
          to,
          to === 'transfer_in_progress' ? { txHash: `0x${'1'.repeat(64)}` } : { review: 'auto' },
          at,
        );
        from = to;
      }
    }
    return w.id;
  });
  return { id, userId };
}

/** Test-only: an enabled operator (a real row: decisions reference operators) as the review service takes it. */
export async function deciding(
  db: Kysely<Database>,
  name: string,
  roles: OperatorRole[] = ['finance'],
): Promise<DecidingOperator> {
  const row = await db
    .insertInto('operators')
    .values({
      name,
      password_hash: null,
      roles,
      enrolment_token_hash: null,
      enrolment_expires_at: null,
      enrolment_issued_by: null,
      created_at: new Date(),
      disabled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { operatorId: row.id, name, roles };
}
