import { type Kysely, sql } from 'kysely';

/**
 * Every check-in event is kept (issue 36, item 10): a user's second check-in of a UTC day (another
 * wallet, another chain) was dropped at insert by unique (user_id, day), so when the first one seen
 * was reorged out the day was lost although the other check-in was real. Now several records of a
 * day may be 'seen'; one is chosen at confirmation (unique among confirmed ones), the others become
 * 'superseded' (seen again should the chosen one be reorged away). One per transaction (0041) stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sign_records drop constraint sign_records_user_id_day_key`.execute(db);
  await sql`alter table sign_records drop constraint sign_records_state_check`.execute(db);
  await sql`alter table sign_records add constraint sign_records_state_check
    check (state in ('seen', 'confirmed', 'superseded'))`.execute(db);
  await sql`alter table sign_records add constraint sign_records_superseded_unrewarded
    check (state <> 'superseded' or (reward_minor = 0 and booked_at is null and claim_id is null))`.execute(db);
  await sql`create unique index sign_records_one_confirmed_per_day on sign_records (user_id, day)
    where state = 'confirmed'`.execute(db);
  // The streak look-up of a user's days (was served by the unique constraint's index).
  await sql`create index sign_records_user_day_idx on sign_records (user_id, day)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sign_records where state = 'superseded'`.execute(db);
  await sql`delete from sign_records s using sign_records t
    where s.user_id = t.user_id and s.day = t.day and s.id <> t.id and s.state = 'seen'
      and (t.state = 'confirmed' or t.id < s.id)`.execute(db);
  await sql`drop index sign_records_user_day_idx`.execute(db);
  await sql`drop index sign_records_one_confirmed_per_day`.execute(db);
  await sql`alter table sign_records drop constraint sign_records_superseded_unrewarded`.execute(db);
  await sql`alter table sign_records drop constraint sign_records_state_check`.execute(db);
  await sql`alter table sign_records add constraint sign_records_state_check
    check (state in ('seen', 'confirmed'))`.execute(db);
  await sql`alter table sign_records add constraint sign_records_user_id_day_key unique (user_id, day)`.execute(db);
}
