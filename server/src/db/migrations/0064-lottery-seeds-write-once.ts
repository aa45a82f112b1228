import { type Kysely, sql } from 'kysely';

/**
 * Lottery seed rows are history the user verifies against (issue 36, review of item 15): once set,
 * `activated_at` and `retired_at` never change (a retired seed cannot be un-retired and re-used, an
 * activation cannot be moved), and no seed row is ever deleted (its draws and its reveal would lose
 * their commitment). The 0063 trigger's other rules (seed, commitment, created_at, user, a set client
 * seed) stay.
 *
 * A seed pair also names the prize table the user chose it against (`prize_table_hash`, SHA-256 of the
 * canonical table, set at activation and write-once): a draw on a pair whose table is no longer the
 * configured one is refused, so a reconfiguration cannot change the odds under a client seed the user
 * picked for other odds. Pairs activated before this migration have none: they draw nothing until the
 * user sets a new client seed (the browser does so by itself before drawing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lottery_server_seeds
    add column prize_table_hash text check (prize_table_hash ~ '^[0-9a-f]{64}$'),
    add constraint lottery_server_seeds_table_when_active check (prize_table_hash is null or activated_at is not null)`.execute(
    db,
  );
  await sql`
    create or replace function lottery_server_seeds_fixed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        raise exception 'a lottery seed row is never deleted' using errcode = 'insufficient_privilege';
      end if;
      if new.seed <> old.seed or new.commitment <> old.commitment or new.created_at <> old.created_at
         or new.user_id <> old.user_id
         or (old.client_seed is not null and new.client_seed is distinct from old.client_seed)
         or (old.activated_at is not null and new.activated_at is distinct from old.activated_at)
         or (old.retired_at is not null and new.retired_at is distinct from old.retired_at)
         or (old.prize_table_hash is not null and new.prize_table_hash is distinct from old.prize_table_hash) then
        raise exception 'a committed lottery seed and its client seed never change' using errcode = 'insufficient_privilege';
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger lottery_server_seeds_no_delete before delete on lottery_server_seeds
    for each row execute function lottery_server_seeds_fixed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger lottery_server_seeds_no_delete on lottery_server_seeds`.execute(db);
  await sql`
    create or replace function lottery_server_seeds_fixed() returns trigger language plpgsql as $$
    begin
      if new.seed <> old.seed or new.commitment <> old.commitment or new.created_at <> old.created_at
         or new.user_id <> old.user_id
         or (old.client_seed is not null and new.client_seed is distinct from old.client_seed) then
        raise exception 'a committed lottery seed and its client seed never change' using errcode = 'insufficient_privilege';
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`alter table lottery_server_seeds drop constraint lottery_server_seeds_table_when_active,
    drop column prize_table_hash`.execute(db);
}
