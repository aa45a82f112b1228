import { type Kysely, sql } from 'kysely';

/**
 * Rewards (modules/rewards): member tags, daily on-chain check-ins, their claims and delivery, the likes lottery
 * with its committed seeds, and invitations.
 * - `user_rewards` ledger accounts hold rewards earned but not yet delivered to the available balance.
 * - A sign record is written when the watcher sees a `CheckedIn` event ('seen') and confirmed at the
 *   configured confirmations; its reward is booked by the rewards booker afterwards (`booked_at`),
 *   so a short rewards pool delays a booking instead of failing the watcher.
 * - Days are UTC days as 'YYYY-MM-DD' text (no time-zone conversion on the way out).
 * - One sign a user per UTC day, whichever wallet it came from (unique user_id, day).
 * - A draw is unique on (day, user, n): the allowance check and the insert run under a per-user lock,
 *   and the key makes a retry harmless.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in (
    'user_available', 'user_locked', 'user_rewards', 'system_hot_wallet', 'system_fees', 'system_liquidity',
    'system_rewards', 'system_external'))`.execute(db);

  // The opaque tag a user's check-ins carry on chain: 32 random bytes, so the chain never shows the user id.
  await sql`create table member_tags (
    user_id uuid primary key references users (id),
    tag text not null unique check (tag ~ '^0x[0-9a-f]{64}$'),
    created_at timestamptz not null
  )`.execute(db);
  await sql`create table reward_claims (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    asset text not null,
    amount_minor numeric(78, 0) not null check (amount_minor > 0),
    address text not null,
    claimed_at timestamptz not null,
    delivered_at timestamptz,
    delivery_transfer_id bigint
  )`.execute(db);
  await sql`create index reward_claims_user_idx on reward_claims (user_id, claimed_at desc)`.execute(db);

  await sql`create table sign_records (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    network text not null,
    address text not null,
    tx_hash text not null,
    log_index integer not null,
    block_number bigint not null,
    block_hash text not null,
    state text not null check (state in ('seen', 'confirmed')),
    asset text not null,
    reward_minor numeric(78, 0) not null check (reward_minor >= 0),
    seen_at timestamptz not null,
    confirmed_at timestamptz,
    booked_at timestamptz,
    claim_id uuid references reward_claims (id),
    unique (user_id, day),
    unique (network, tx_hash, log_index),
    check (claim_id is null or booked_at is not null)
  )`.execute(db);
  await sql`create index sign_records_unconfirmed_idx on sign_records (network, block_number) where state = 'seen'`.execute(
    db,
  );
  await sql`create index sign_records_unbooked_idx on sign_records (confirmed_at) where state = 'confirmed' and booked_at is null`.execute(
    db,
  );

  await sql`create table announcement_likes (
    user_id uuid not null references users (id),
    announcement_id uuid not null references announcements (id),
    day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    created_at timestamptz not null,
    primary key (user_id, announcement_id)
  )`.execute(db);
  await sql`create index announcement_likes_day_idx on announcement_likes (user_id, day)`.execute(db);

  await sql`create table lottery_seeds (
    day text primary key check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    seed bytea not null check (octet_length(seed) = 32),
    commitment text not null,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create table lottery_draws (
    day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    user_id uuid not null references users (id),
    n integer not null check (n >= 1 and n <= 100),
    prize_index integer not null,
    asset text not null,
    prize_minor numeric(78, 0) not null check (prize_minor >= 0),
    created_at timestamptz not null,
    primary key (day, user_id, n)
  )`.execute(db);

  await sql`create table invite_codes (
    user_id uuid primary key references users (id),
    code text not null unique check (code ~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$'),
    created_at timestamptz not null
  )`.execute(db);
  await sql`create table invitations (
    invitee_id uuid primary key references users (id),
    inviter_id uuid not null references users (id),
    created_at timestamptz not null,
    first_deposit_at timestamptz,
    reward_asset text,
    reward_minor numeric(78, 0),
    booked_at timestamptz,
    check (invitee_id <> inviter_id)
  )`.execute(db);
  await sql`create index invitations_inviter_idx on invitations (inviter_id, created_at desc)`.execute(db);
  await sql`create index invitations_unbooked_idx on invitations (created_at) where booked_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'invitations',
    'invite_codes',
    'lottery_draws',
    'lottery_seeds',
    'announcement_likes',
    'sign_records',
    'reward_claims',
    'member_tags',
  ]) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in (
    'user_available', 'user_locked', 'system_hot_wallet', 'system_fees', 'system_liquidity',
    'system_rewards', 'system_external'))`.execute(db);
}
