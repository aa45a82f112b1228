import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { actorDetails, checkReason, type OpsActor } from './actions.ts';

/** The personal data an operator can reveal, one field (of one row, for sessions and payout methods). */
export const REVEALABLE = ['email', 'nickname', 'session_ip', 'payment_method'] as const;
export type RevealField = (typeof REVEALABLE)[number];

/**
 * The full value of one masked field, to compliance only (the route's roles), with a reason: the
 * audit record (who, whose, which field and row, why) is written in the same transaction as the read,
 * so no value leaves without its record. Only that field is answered.
 */
export async function revealField(
  db: Kysely<Database>,
  input: { actor: OpsActor; userId: string; field: RevealField; itemId?: string; reason: string; now: Date },
): Promise<{ field: RevealField; itemId: string | null; value: string }> {
  const reason = checkReason(input.reason);
  const { userId, field, actor } = input;
  const itemId = input.itemId ?? null;
  const needsItem = field === 'session_ip' || field === 'payment_method';
  if (needsItem !== (itemId !== null))
    throw new ValidationError(needsItem ? `${field} needs the itemId of the row` : `${field} takes no itemId`, [
      { field: 'itemId', rule: 'required', message: 'itemId names the session or payout method' },
    ]);
  return db.transaction().execute(async (trx) => {
    const value = await readField(trx, userId, field, itemId);
    if (value === undefined) throw new NotFoundError('No such user, or no such row of this user');
    await appendAudit(trx, {
      event: 'ops_user_field_revealed',
      at: input.now,
      userId,
      ip: actor.ip,
      details: { field, itemId, reason, ...actorDetails(actor) },
    });
    return { field, itemId, value };
  });
}

async function readField(
  db: Kysely<Database>,
  userId: string,
  field: RevealField,
  itemId: string | null,
): Promise<string | undefined> {
  switch (field) {
    case 'email':
    case 'nickname': {
      const row = await db
        .selectFrom('accounts')
        .select(['email', 'nickname'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      return field === 'email' ? row.email : (row.nickname ?? '');
    }
    case 'session_ip': {
      const row = await db
        .selectFrom('sessions')
        .select('ip')
        .where('user_id', '=', userId)
        .where('id', '=', itemId as string)
        .executeTakeFirst();
      return row ? (row.ip ?? '') : undefined;
    }
    case 'payment_method': {
      const row = await db
        .selectFrom('payment_methods')
        .select('shown')
        .where('user_id', '=', userId)
        .where('id', '=', itemId as string)
        .executeTakeFirst();
      return row
        ? Object.entries(row.shown)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ')
        : undefined;
    }
  }
}
