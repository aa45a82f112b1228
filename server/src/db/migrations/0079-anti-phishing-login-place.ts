import { type Kysely, sql } from 'kysely';

/**
 * Issue 31:
 * - anti_phishing_codes: a short phrase the user sets, put at the top of every mail we send them
 *   (codes, notices, support answers), so a phishing mail without it stands out. Plain text, 4..32
 *   characters, none of < > & " ' (it is put into HTML mail; escaped there too, this is defence in depth).
 * - login_attempts gains the approximate place of its IP (offline data, lib/ip-place.ts) as seen at
 *   the sign-in, and an index for the retention sweep that deletes rows past the 90 days shown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table anti_phishing_codes (
    user_id uuid primary key references users (id) on delete cascade,
    phrase text not null check (char_length(phrase) between 4 and 32 and phrase !~ '[<>&"''[:cntrl:]]'),
    updated_at timestamptz not null
  )`.execute(db);
  await sql`alter table login_attempts
    add column country text check (char_length(country) <= 2),
    add column region text check (char_length(region) <= 100),
    add column city text check (char_length(city) <= 100)`.execute(db);
  await sql`create index login_attempts_occurred_idx on login_attempts (occurred_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index login_attempts_occurred_idx`.execute(db);
  await sql`alter table login_attempts drop column city, drop column region, drop column country`.execute(db);
  await sql`drop table anti_phishing_codes`.execute(db);
}
