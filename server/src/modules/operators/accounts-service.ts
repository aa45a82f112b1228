import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ForbiddenError, NotFoundError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { hashToken, newSessionToken } from '../auth/secrets.ts';
import { revokeUserSessions } from '../auth/sessions-repository.ts';
import type { SessionsEndedHook } from '../auth/sessions-service.ts';
import { forgetOtherDevices } from '../security/devices-repository.ts';
import { type Actor, CLI_ONLY_ROLES, lockActorWith, privilegedGrantProblem } from './account-guards.ts';
import {
  disableOperator,
  listOperators,
  type OperatorListRow,
  resetForEnrolment,
  setOperatorRoles,
  voidLinksIssuedBy,
  voidOwnLink,
} from './accounts-repository.ts';
import { findOperatorById, findOperatorByName, insertOperator, revokeOperatorSessions } from './repository.ts';
import { type OperatorRole, rolesProblem } from './roles.ts';
import { OPERATOR_IDLE_MS, OPERATOR_NAME_PATTERN } from './service.ts';

/** An enrolment link works for 24 hours, once. */
export const ENROLMENT_TTL_MS = 24 * 3_600_000;
const LIST_LIMIT = 500;

export type { Actor } from './account-guards.ts';

const actorDetails = (actor: Actor) =>
  actor.kind === 'cli' ? { by: 'ops-cli' } : { by: actor.name, byOperatorId: actor.operatorId };

/** The link's path part: the token rides in the fragment, so it reaches neither server logs nor a Referer. */
export function enrolmentLink(consoleUrl: string, token: string): string {
  return `${consoleUrl.replace(/\/?$/, '/')}#enrol=${token}`;
}

export interface OperatorAccounts {
  list(): Promise<OperatorListRow[]>;
  /** A new operator with roles; returns the one-time enrolment token (the link is shown once). */
  add(actor: Actor, name: string, roles: OperatorRole[]): Promise<{ id: string; name: string; token: string }>;
  /** A new enrolment link for an existing operator: voids their password and app, ends their sessions. */
  reenrol(actor: Actor, who: { name: string } | { id: string }): Promise<{ id: string; token: string }>;
  setRoles(actor: Actor, operatorId: string, roles: OperatorRole[]): Promise<void>;
  disable(actor: Actor, operatorId: string): Promise<void>;
  endOperatorSessions(actor: Actor, operatorId: string): Promise<number>;
  endUserSessions(actor: Actor, userId: string): Promise<number>;
}

/**
 * Operator accounts (admin in the console, or the ops CLI). The rules against escalation:
 * - nobody changes their own roles, disables themself or is exempt from them: another admin (or the CLI) does;
 * - `finance` (money), `admin` and `compliance` (personal data, freezes) are granted only from the ops
 *   CLI: a console admin cannot mint approvers or a second admin identity of their own (review 32a,
 *   finding 4: the console shows the admin the new account's link, so "another admin must do it" was
 *   the same person), not even for a colleague (taking them away is allowed), nor re-enrol an operator
 *   who holds one (the link's holder becomes that operator);
 * - a link a console admin issued is honoured only while that admin is enabled and admin; disabling
 *   them or taking admin away voids it; a CLI grant of those roles voids a pending console link and is
 *   refused on an account enrolled through one (re-enrol from the CLI first: findings 3 and 5);
 * - each action re-reads the acting admin's own row, locked (ids in order), inside its transaction
 *   (finding 8: an admin being disabled cannot still act once);
 * - admin and finance are never held together (rolesProblem; a database check too).
 * Every change is in the audit log, with who did it.
 */
export function createOperatorAccounts(deps: {
  db: Kysely<Database>;
  now: () => Date;
  /** What else ends with a user's sessions (pending sells: auth-module's onSessionsEnded). */
  onUserSessionsEnded?: SessionsEndedHook;
}): OperatorAccounts {
  const { db, now } = deps;
  const checkRoles = (actor: Actor, roles: OperatorRole[], before: readonly OperatorRole[]) => {
    const problem = rolesProblem(roles);
    if (problem !== null) throw new AppError('VALIDATION_FAILED', problem);
    const granted = roles.find((r) => CLI_ONLY_ROLES.includes(r) && !before.includes(r));
    if (actor.kind === 'operator' && granted !== undefined)
      throw new ForbiddenError(`The ${granted} role is granted from the ops CLI only`);
  };
  const notSelf = (actor: Actor, operatorId: string) => {
    if (actor.kind === 'operator' && actor.operatorId === operatorId)
      throw new ForbiddenError('Another admin must do this for you');
  };
  // The actor's row and the target's, locked in id order; the actor still an enabled admin.
  const locked = async (trx: Kysely<Database>, operatorId: string, actor: Actor) => {
    const row = await lockActorWith(trx, actor, operatorId);
    if (!row) throw new NotFoundError('No such operator');
    return row;
  };
  const ip = (actor: Actor) => (actor.kind === 'operator' ? actor.ip : null);

  return {
    list() {
      const at = now();
      return listOperators(db, at, new Date(at.getTime() - OPERATOR_IDLE_MS), LIST_LIMIT);
    },

    async add(actor, name, roles) {
      if (!OPERATOR_NAME_PATTERN.test(name))
        throw new AppError('VALIDATION_FAILED', 'Operator names are 3-32 of a-z 0-9 _');
      checkRoles(actor, roles, []);
      const token = newSessionToken();
      const at = now();
      return db.transaction().execute(async (trx) => {
        await lockActorWith(trx, actor, null);
        if (await findOperatorByName(trx, name)) throw new AppError('CONFLICT', `Operator ${name} exists`);
        const row = await insertOperator(
          trx,
          {
            name,
            roles,
            enrolmentTokenHash: hashToken(token),
            enrolmentExpiresAt: new Date(at.getTime() + ENROLMENT_TTL_MS),
            enrolmentIssuedBy: actor.kind === 'operator' ? actor.operatorId : null,
          },
          at,
        );
        await appendAudit(trx, {
          event: 'operator_added',
          at,
          ip: ip(actor),
          details: { operator: name, operatorId: row.id, roles, ...actorDetails(actor) },
        });
        return { id: row.id, name: row.name, token };
      });
    },

    async reenrol(actor, who) {
      const token = newSessionToken();
      const at = now();
      return db.transaction().execute(async (trx) => {
        const found = 'id' in who ? await findOperatorById(trx, who.id) : await findOperatorByName(trx, who.name);
        if (!found) throw new NotFoundError('No such operator');
        notSelf(actor, found.id);
        const row = await locked(trx, found.id, actor);
        const name = row.name;
        if (row.disabled_at !== null) throw new AppError('CONFLICT', `Operator ${name} is disabled`);
        // Whoever holds the link becomes the operator: a console admin re-enrolling a finance, admin or
        // compliance operator would own that account. Those links come from the ops CLI only.
        const held = row.roles.find((r) => CLI_ONLY_ROLES.includes(r));
        if (actor.kind === 'operator' && held !== undefined)
          throw new ForbiddenError(`An enrolment link for a ${held} operator is issued from the ops CLI only`);
        await resetForEnrolment(trx, row.id, {
          tokenHash: hashToken(token),
          expiresAt: new Date(at.getTime() + ENROLMENT_TTL_MS),
          issuedBy: actor.kind === 'operator' ? actor.operatorId : null,
        });
        const ended = await revokeOperatorSessions(trx, row.id, at);
        await appendAudit(trx, {
          event: 'operator_enrolment_issued',
          at,
          ip: ip(actor),
          details: { operator: name, operatorId: row.id, sessionsEnded: ended, ...actorDetails(actor) },
        });
        return { id: row.id, token };
      });
    },

    async setRoles(actor, operatorId, roles) {
      notSelf(actor, operatorId);
      const unique = [...new Set(roles)];
      await db.transaction().execute(async (trx) => {
        const row = await locked(trx, operatorId, actor);
        checkRoles(actor, unique, row.roles);
        const grant = privilegedGrantProblem(row, unique);
        if (grant === 'enrolled_by_console')
          throw new AppError(
            'CONFLICT',
            `${row.name} was enrolled through a link a console admin saw: issue a new one from the ops CLI (operators enrol ${row.name}) before granting ${unique.filter((r) => CLI_ONLY_ROLES.includes(r) && !row.roles.includes(r)).join(', ')}`,
          );
        // A pending console link dies with the grant: its holder may be the admin who was shown it.
        if (grant === 'void_console_link') await voidOwnLink(trx, operatorId);
        await setOperatorRoles(trx, operatorId, unique);
        // No longer admin: the links they issued die with the role.
        const linksVoided =
          row.roles.includes('admin') && !unique.includes('admin') ? await voidLinksIssuedBy(trx, operatorId) : 0;
        await appendAudit(trx, {
          event: 'operator_roles_changed',
          at: now(),
          ip: ip(actor),
          details: {
            operator: row.name,
            operatorId,
            from: row.roles,
            to: unique,
            ...(grant === 'void_console_link' ? { ownLinkVoided: true } : {}),
            ...(linksVoided > 0 ? { issuedLinksVoided: linksVoided } : {}),
            ...actorDetails(actor),
          },
        });
      });
    },

    async disable(actor, operatorId) {
      notSelf(actor, operatorId);
      await db.transaction().execute(async (trx) => {
        const row = await locked(trx, operatorId, actor);
        if (row.disabled_at !== null) return;
        const at = now();
        await disableOperator(trx, operatorId, at);
        // The guard also refuses a disabled operator's session; ending them keeps the list honest.
        const ended = await revokeOperatorSessions(trx, operatorId, at);
        // No way back in through a link they handed to themselves before leaving.
        const linksVoided = await voidLinksIssuedBy(trx, operatorId);
        await appendAudit(trx, {
          event: 'operator_disabled',
          at,
          ip: ip(actor),
          details: { operator: row.name, operatorId, sessionsEnded: ended, linksVoided, ...actorDetails(actor) },
        });
      });
    },

    async endOperatorSessions(actor, operatorId) {
      return db.transaction().execute(async (trx) => {
        const row = await locked(trx, operatorId, actor);
        const at = now();
        const ended = await revokeOperatorSessions(trx, operatorId, at);
        await appendAudit(trx, {
          event: 'operator_sessions_ended',
          at,
          ip: ip(actor),
          details: { operator: row.name, operatorId, sessionsEnded: ended, ...actorDetails(actor) },
        });
        return ended;
      });
    },

    async endUserSessions(actor, userId) {
      return db.transaction().execute(async (trx) => {
        await lockActorWith(trx, actor, null);
        const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
        if (!user) throw new NotFoundError('No such user');
        const at = now();
        await forgetOtherDevices(trx, userId, undefined);
        const ended = await revokeUserSessions(trx, userId, at);
        await deps.onUserSessionsEnded?.(trx, userId, at);
        await appendAudit(trx, {
          event: 'user_sessions_ended_by_operator',
          at,
          userId,
          ip: ip(actor),
          details: { sessionsEnded: ended, ...actorDetails(actor) },
        });
        return ended;
      });
    },
  };
}
