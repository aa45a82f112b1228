import { type Kysely, sql } from 'kysely';

/**
 * Ends every operator session opened before operator sign-in needed an authenticator code (0084, issue 32):
 * such a session was opened with the password alone and, after 0084, acts with the roles 0084 gave
 * (admin + support) for the rest of its 12 hours. Every operator signs in again, with the code
 * (review of issue 32 part 1, finding 6).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from operator_sessions`.execute(db);
}

export async function down(): Promise<void> {
  // Ended sessions are not brought back.
}
