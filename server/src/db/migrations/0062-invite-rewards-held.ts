import { type Kysely, sql } from 'kysely';

/**
 * Invite rewards are held (issue 36, review of item 9: the same qualifying deposit recycled through
 * fake accounts). The reward is booked into the inviter's pending rewards (user_rewards) when the
 * invitee's qualifying deposit is credited, and released to the available balance after the claim
 * delay (`release_at`) only if that deposit still stands and the invitee's available balance stayed at
 * least the qualifying amount all along (invite-rewards.ts); otherwise it is forfeited back to the rewards pool. Rewards booked before this
 * migration were paid straight to the available balance: they count as released.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table invitations
    add column qualifying_deposit_id uuid references deposits (id),
    add column qualifying_minor numeric(78, 0) check (qualifying_minor > 0),
    add column release_at timestamptz,
    add column released_at timestamptz,
    add column forfeited_at timestamptz,
    add constraint invitations_released_or_forfeited check (released_at is null or forfeited_at is null)`.execute(db);
  await sql`update invitations set released_at = booked_at where booked_at is not null`.execute(db);
  await sql`create index invitations_held_idx on invitations (release_at)
    where booked_at is not null and released_at is null and forfeited_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index invitations_held_idx`.execute(db);
  await sql`alter table invitations drop constraint invitations_released_or_forfeited,
    drop column forfeited_at, drop column released_at, drop column release_at, drop column qualifying_minor,
    drop column qualifying_deposit_id`.execute(db);
}
