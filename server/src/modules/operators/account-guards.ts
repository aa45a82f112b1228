import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ForbiddenError } from '../../errors/app-error.ts';
import { lockOperator } from './accounts-repository.ts';
import type { OperatorRow } from './repository.ts';
import type { OperatorRole } from './roles.ts';

/** Who acts: an operator in the console, or the ops CLI (someone with the server's shell). */
export type Actor = { kind: 'operator'; operatorId: string; name: string; ip: string } | { kind: 'cli' };

/**
 * Roles granted only from the ops CLI (review 32a, finding 4). `finance` moves money; `admin` and
 * `compliance` were grantable in the console, but the console shows the issuing admin the new
 * account's enrolment link, so one admin could enrol a second admin identity and have it grant them
 * compliance (or anything): "another admin must do it" was the same person. A second admin's
 * confirmation (four eyes on grants) would also close it, but needs its own queue and screens; the
 * CLI is the root of trust already (it made the first admin), so privileged grants stay there.
 * Console admins still add and re-enrol support operators, take roles away, disable and end sessions.
 */
export const CLI_ONLY_ROLES: readonly OperatorRole[] = ['finance', 'admin', 'compliance'];

/**
 * Locks the acting admin's row and the target's in id order (two admins acting on each other cannot
 * deadlock) and re-checks, inside the transaction, that the actor is still an enabled admin (review
 * 32a, finding 8: the guard's check ran before the transaction, so an admin being disabled could act
 * once more). The CLI has no row. Returns the target's row (undefined when missing).
 */
export async function lockActorWith(
  trx: Kysely<Database>,
  actor: Actor,
  targetId: string | null,
): Promise<OperatorRow | undefined> {
  const ids = [...new Set([actor.kind === 'operator' ? actor.operatorId : null, targetId])]
    .filter((id): id is string => id !== null)
    .sort();
  const rows = new Map<string, OperatorRow | undefined>();
  for (const id of ids) rows.set(id, await lockOperator(trx, id));
  if (actor.kind === 'operator') {
    const me = rows.get(actor.operatorId);
    if (!me || me.disabled_at !== null || !me.roles.includes('admin'))
      throw new ForbiddenError('Your operator account is no longer an enabled admin');
  }
  return targetId === null ? undefined : rows.get(targetId);
}

/**
 * A grant of a CLI-only role onto an account whose enrolment link a console admin issued (findings 3
 * and 5): while the link is pending it is voided with the grant; once spent, the account's password
 * and app came through that admin's hands, so the grant waits for a new link from the CLI.
 */
export function privilegedGrantProblem(
  row: OperatorRow,
  roles: readonly OperatorRole[],
): 'void_console_link' | 'enrolled_by_console' | null {
  const grants = roles.some((r) => CLI_ONLY_ROLES.includes(r) && !row.roles.includes(r));
  if (!grants || row.enrolment_issued_by === null) return null;
  return row.enrolment_token_hash !== null ? 'void_console_link' : 'enrolled_by_console';
}
