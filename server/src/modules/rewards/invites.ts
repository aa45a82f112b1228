import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { InviteCodeInvalidError } from './errors.ts';

/**
 * Invitations. Each user has an 8-character code from an alphabet without look-alikes (no 0/O,
 * 1/I/L), created on first use; a registration may name one, checked before the account is made
 * and recorded with it in one transaction (attribution is fixed then, never to oneself). The
 * inviter's reward is booked by the rewards booker when the invitee's first deposit is credited.
 */

type Db = Kysely<Database> | Transaction<Database>;

export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const INVITE_CODE_LENGTH = 8;
const CREATE_TRIES = 5;

function freshCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/** Upper case, no spaces or dashes: what a person types from a poster becomes the stored form. */
export function normalizeInviteCode(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

export async function inviteCodeOf(db: Db, userId: string, at: Date): Promise<string> {
  for (let attempt = 0; attempt < CREATE_TRIES; attempt++) {
    const existing = await db
      .selectFrom('invite_codes')
      .select('code')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) return existing.code;
    try {
      await db
        .insertInto('invite_codes')
        .values({ user_id: userId, code: freshCode(), created_at: at })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
    } catch (err) {
      // Another user's code (1 in 31^8 per pair): try another.
      if ((err as { code?: string }).code !== '23505') throw err;
    }
  }
  throw new Error('could not create an invite code');
}

/** The inviter of a code; a malformed or unknown code is INVITE_CODE_INVALID. */
export async function inviterOf(db: Db, rawCode: string): Promise<string> {
  const code = normalizeInviteCode(rawCode);
  const pattern = new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);
  if (!pattern.test(code)) throw new InviteCodeInvalidError();
  const row = await db.selectFrom('invite_codes').select('user_id').where('code', '=', code).executeTakeFirst();
  if (!row) throw new InviteCodeInvalidError();
  return row.user_id;
}

export async function recordInvitation(
  trx: Transaction<Database>,
  input: { inviteeId: string; inviterId: string; at: Date },
): Promise<void> {
  if (input.inviteeId === input.inviterId) throw new InviteCodeInvalidError();
  await trx
    .insertInto('invitations')
    .values({ invitee_id: input.inviteeId, inviter_id: input.inviterId, created_at: input.at })
    .execute();
}

/** "ab***yz": enough for the inviter to recognise a friend, not enough to find them. */
export function maskName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 2) return `${chars[0] ?? ''}***`;
  return `${chars.slice(0, 2).join('')}***${chars.at(-1)}`;
}

export async function listInvitations(db: Db, inviterId: string, limit: number) {
  const rows = await db
    .selectFrom('invitations as i')
    .innerJoin('accounts as a', 'a.user_id', 'i.invitee_id')
    .select([
      'a.username',
      'i.created_at',
      'i.first_deposit_at',
      'i.reward_asset',
      'i.reward_minor',
      'i.booked_at',
      'i.release_at',
      'i.released_at',
      'i.forfeited_at',
    ])
    .where('i.inviter_id', '=', inviterId)
    .orderBy('i.created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    invitee: maskName(r.username),
    registeredAt: r.created_at,
    status: inviteState(r),
    firstDepositAt: r.first_deposit_at,
    rewardAsset: r.reward_asset,
    rewardMinor: r.booked_at ? r.reward_minor : null,
    releaseAt: r.released_at || r.forfeited_at ? null : r.release_at,
  }));
}

/** registered; deposited: the reward is held (invite-rewards.ts); paid to the inviter; or forfeited. */
function inviteState(r: { first_deposit_at: Date | null; released_at: Date | null; forfeited_at: Date | null }) {
  if (r.forfeited_at) return 'forfeited' as const;
  if (r.released_at) return 'paid' as const;
  return r.first_deposit_at ? ('deposited' as const) : ('registered' as const);
}
