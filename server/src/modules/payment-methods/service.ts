import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client as AuthClient } from '../auth/client.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import { queueSecurityNotice } from '../security/security-mails.ts';
import { lockOutflows } from '../withdrawals/outflow-budget.ts';
import { METHODS_MAX, type NewPaymentMethod, type PaymentMethod } from './schemas.ts';
import type { Sealer } from './sealing.ts';
import { checkMethod } from './validate.ts';

export interface PaymentMethodsServiceOptions {
  db: Kysely<Database>;
  now: () => Date;
  sealer: Sealer;
  fundPassword: Pick<FundPasswordService, 'verify'>;
  /** The withdrawal allowlist's hold: a method added or switched back on waits it before a sell may pay it. */
  holdMs: number;
  /** The app's public origin, for the freeze link in the notice mail. */
  publicOrigin?: string;
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
  usable_at: Date;
}): PaymentMethod {
  return {
    id: row.id,
    kind: row.kind,
    active: row.active,
    shown: row.shown,
    createdAt: row.created_at.toISOString(),
    usableAt: row.usable_at.toISOString(),
  };
}

const COLUMNS = ['id', 'kind', 'active', 'shown', 'created_at', 'usable_at'] as const;

/** What the notice names: the kind, the masked fields, and when a sell may pay it with the allowlist on. */
function noticeDetail(row: { kind: string; shown: Record<string, string>; usable_at: Date }): string {
  const shown = Object.values(row.shown).slice(0, 3).join(' · ');
  return `${row.kind} ${shown} (${row.usable_at.toISOString()})`.slice(0, 200);
}

/**
 * Payout methods: checked (shared rules + the IFSC bank list), numbers sealed, shown masked, every
 * change audited in the same transaction. At most METHODS_MAX per user (PAYMENT_METHOD_LIMIT).
 */
export function createPaymentMethodsService(options: PaymentMethodsServiceOptions) {
  const { db, now, sealer, fundPassword, holdMs, publicOrigin } = options;
  return {
    async list(userId: string) {
      const rows = await db
        .selectFrom('payment_methods')
        .select(COLUMNS)
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
        // The outflow lock (which a sell holds while it checks its method's hold) also serialises the count.
        await lockOutflows(trx, userId);
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
            usable_at: new Date(at.getTime() + holdMs),
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        // The owner hears of it with a freeze link: a thief's own method is where a sell would pay.
        await queueSecurityNotice(trx, userId, 'payout_method_added', at, publicOrigin, noticeDetail(row));
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
        await lockOutflows(trx, userId);
        const before = await trx
          .selectFrom('payment_methods')
          .select(['active'])
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!before) throw new NotFoundError('No such payment method');
        // Switching a method back on is adding it again (a retired number may now be someone else's):
        // its hold starts over. Switching on what is on changes nothing (a repeat must not restart it).
        const turnedOn = active && !before.active;
        const row = await trx
          .updateTable('payment_methods')
          .set({ active, updated_at: at, ...(turnedOn ? { usable_at: new Date(at.getTime() + holdMs) } : {}) })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        if (turnedOn)
          await queueSecurityNotice(trx, userId, 'payout_method_activated', at, publicOrigin, noticeDetail(row));
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
