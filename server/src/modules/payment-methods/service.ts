import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client as AuthClient } from '../auth/client.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import { METHODS_MAX, type NewPaymentMethod, type PaymentMethod } from './schemas.ts';
import type { Sealer } from './sealing.ts';
import { checkMethod } from './validate.ts';

export interface PaymentMethodsServiceOptions {
  db: Kysely<Database>;
  now: () => Date;
  sealer: Sealer;
  fundPassword: Pick<FundPasswordService, 'verify'>;
}

export type PaymentMethodsService = ReturnType<typeof createPaymentMethodsService>;

/** The binding sealed into a method's numbers: they open only on this user's own record. */
export const sealBinding = (userId: string, id: string) => `payment-method:${userId}:${id}`;

function toView(row: {
  id: string;
  kind: PaymentMethod['kind'];
  active: boolean;
  shown: Record<string, string>;
  created_at: Date;
}): PaymentMethod {
  return { id: row.id, kind: row.kind, active: row.active, shown: row.shown, createdAt: row.created_at.toISOString() };
}

/**
 * Payout methods: checked (shared rules + the IFSC bank list), numbers sealed, shown masked, every
 * change audited in the same transaction. At most METHODS_MAX per user (PAYMENT_METHOD_LIMIT).
 */
export function createPaymentMethodsService({ db, now, sealer, fundPassword }: PaymentMethodsServiceOptions) {
  return {
    async list(userId: string) {
      const rows = await db
        .selectFrom('payment_methods')
        .select(['id', 'kind', 'active', 'shown', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .limit(METHODS_MAX)
        .execute();
      return { items: rows.map(toView), max: METHODS_MAX };
    },

    /**
     * A new method is where a sell's money goes: with a stolen session alone it would be the thief's,
     * so it takes the fund password (FUND_PASSWORD_NOT_SET when none is set; setting one takes a code).
     */
    async add(client: AuthClient, input: NewPaymentMethod): Promise<PaymentMethod> {
      const userId = client.userId;
      if (!userId) throw new Error('payment methods: add needs a signed-in client');
      const checked = checkMethod(input);
      await fundPassword.verify(client, userId, input.fundPassword);
      const id = randomUUID();
      const at = now();
      return db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
        const { n } = await trx
          .selectFrom('payment_methods')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= METHODS_MAX) {
          throw new AppError('PAYMENT_METHOD_LIMIT', `At most ${METHODS_MAX} payment methods`, {
            details: { limit: METHODS_MAX },
          });
        }
        const row = await trx
          .insertInto('payment_methods')
          .values({
            id,
            user_id: userId,
            kind: checked.kind,
            shown: JSON.stringify(checked.shown),
            sealed: checked.secret ? sealer.seal(checked.secret, sealBinding(userId, id)) : null,
            created_at: at,
            updated_at: at,
          })
          .returning(['id', 'kind', 'active', 'shown', 'created_at'])
          .executeTakeFirstOrThrow();
        await appendAudit(trx, {
          event: 'payment_method_added',
          at,
          userId,
          ip: client.ip,
          details: { methodId: id, kind: checked.kind },
        });
        return toView(row);
      });
    },

    /**
     * Off needs nothing; on takes the fund password, as adding does: a thief with a session alone
     * could otherwise switch back on a method the owner retired (an old account, a number now theirs).
     */
    async setActive(
      client: AuthClient,
      id: string,
      active: boolean,
      fundPasswordText?: string,
    ): Promise<PaymentMethod> {
      const userId = client.userId;
      if (!userId) throw new Error('payment methods: setActive needs a signed-in client');
      if (active) {
        if (fundPasswordText === undefined)
          throw new ValidationError('The fund password is required', [
            { field: 'fundPassword', message: 'is required to turn a method on', rule: 'required' },
          ]);
        const mine = await db
          .selectFrom('payment_methods')
          .select('id')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!mine) throw new NotFoundError('No such payment method');
        await fundPassword.verify(client, userId, fundPasswordText);
      }
      const at = now();
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('payment_methods')
          .set({ active, updated_at: at })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning(['id', 'kind', 'active', 'shown', 'created_at'])
          .executeTakeFirst();
        if (!row) throw new NotFoundError('No such payment method');
        await appendAudit(trx, {
          event: active ? 'payment_method_activated' : 'payment_method_deactivated',
          at,
          userId,
          ip: client.ip,
          details: { methodId: id },
        });
        return toView(row);
      });
    },
  };
}
