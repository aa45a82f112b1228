import { type Kysely, sql } from 'kysely';

/**
 * An index for the login history's hourly cap (security/login-history.ts recordLoginAttempt): its count
 * of a user's throttled attempts, or refused passkey answers, since an hour ago ran on
 * login_attempts_user_idx (user_id, id desc) and read every row of the user in the 90 days kept.
 * Partial, on the two results the cap counts (the count's `result = 'throttled'` or `result = 'failed'`
 * implies the predicate): the succeeded sign-ins, most of the table, are not in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index login_attempts_capped_idx on login_attempts (user_id, occurred_at)
    where result in ('throttled', 'failed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index login_attempts_capped_idx`.execute(db);
}
