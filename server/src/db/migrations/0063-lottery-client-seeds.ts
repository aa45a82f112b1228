import { type Kysely, sql } from 'kysely';

/**
 * Provably fair against the operator (issue 36 item 15): each user's draws run on a server seed of
 * their own, committed (SHA-256 shown) BEFORE the user picks the client seed it is paired with, so
 * the server cannot grind its seed against the client seed. A user's rows: at most one `next` (no
 * client seed yet; its commitment is what the user sees before choosing), at most one `active` (client
 * seed set), the rest `retired` (seed revealed). A seed, its commitment and a set client seed never
 * change (trigger). A draw names its seed row and nonce (1, 2, ... per seed) and keeps the prize table
 * it was drawn against (canonical JSON, hashed in the API), so every draw verifies alone. Draws made
 * before this migration keep the day seed (`lottery_seeds`, no seed row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table lottery_server_seeds (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    seed bytea not null check (octet_length(seed) = 32),
    commitment text not null check (commitment ~ '^[0-9a-f]{64}$'),
    created_at timestamptz not null,
    client_seed text check (client_seed ~ '^[!-~]{1,64}$'),
    activated_at timestamptz,
    retired_at timestamptz,
    check ((client_seed is null) = (activated_at is null)),
    check (activated_at is null or activated_at >= created_at),
    check (retired_at is null or activated_at is not null)
  )`.execute(db);
  await sql`create unique index lottery_server_seeds_one_next on lottery_server_seeds (user_id)
    where activated_at is null`.execute(db);
  await sql`create unique index lottery_server_seeds_one_active on lottery_server_seeds (user_id)
    where activated_at is not null and retired_at is null`.execute(db);
  await sql`create index lottery_server_seeds_user_created on lottery_server_seeds (user_id, created_at)`.execute(db);
  await sql`
    create function lottery_server_seeds_fixed() returns trigger language plpgsql as $$
    begin
      if new.seed <> old.seed or new.commitment <> old.commitment or new.created_at <> old.created_at
         or new.user_id <> old.user_id
         or (old.client_seed is not null and new.client_seed is distinct from old.client_seed) then
        raise exception 'a committed lottery seed and its client seed never change' using errcode = 'insufficient_privilege';
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger lottery_server_seeds_fixed before update on lottery_server_seeds
    for each row execute function lottery_server_seeds_fixed()`.execute(db);
  await sql`alter table lottery_draws
    add column server_seed_id uuid references lottery_server_seeds (id),
    add column nonce integer check (nonce >= 1),
    add column prize_table text,
    add constraint lottery_draws_seed_nonce check ((server_seed_id is null) = (nonce is null)
      and (server_seed_id is null) = (prize_table is null))`.execute(db);
  await sql`create unique index lottery_draws_seed_nonce_unique on lottery_draws (server_seed_id, nonce)
    where server_seed_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lottery_draws drop constraint lottery_draws_seed_nonce,
    drop column prize_table, drop column nonce, drop column server_seed_id`.execute(db);
  await sql`drop table lottery_server_seeds`.execute(db);
  await sql`drop function lottery_server_seeds_fixed()`.execute(db);
}
