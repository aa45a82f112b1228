import { type Kysely, sql } from 'kysely';

/**
 * Who issued an operator's enrolment link (review 32a, findings 3 and 5): the operator id of the
 * console admin, or null for the ops CLI. Kept after the link is spent, so it also says where the
 * operator's current password and app came from (a console admin saw that link). A link is honoured
 * only while its issuer is still enabled and admin; disabling an admin, or taking admin away, voids
 * the links they issued; privileged roles are never granted onto a console-issued link.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table operators
    add column enrolment_issued_by uuid references operators (id)`.execute(db);
  await sql`create index operators_enrolment_issuer_idx on operators (enrolment_issued_by)
    where enrolment_token_hash is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table operators drop column enrolment_issued_by`.execute(db);
}
