import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { createOperatorAccounts, enrolmentLink } from './accounts-service.ts';
import { findOperatorByName } from './repository.ts';
import { isOperatorRole, type OperatorRole } from './roles.ts';

export const operatorsUsage = [
  'usage: npm run ops -- operators add <name> --roles <support,compliance,finance,admin>',
  '       npm run ops -- operators enrol <name>          (a new one-time link: voids password and app)',
  '       npm run ops -- operators roles <name> <role,...>',
  '       npm run ops -- operators disable <name>',
  '       npm run ops -- operators list',
].join('\n');

function rolesOf(list: string | undefined): OperatorRole[] | null {
  const roles = (list ?? '').split(',').filter((r) => r !== '');
  return roles.length > 0 && roles.every(isOperatorRole) ? roles : null;
}

/**
 * `npm run ops -- operators …`: the shell's side of operator accounts (the same service as the
 * console's Operators page, acting as `ops-cli`). `add` and `enrol` print a one-time enrolment link
 * (24 h): the operator opens it, sets the password and enrols the authenticator app. The link is made
 * from OPS_CONSOLE_URL, or the console's origin (OPS_ORIGIN) + /ops/.
 */
export async function runOperatorsCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  consoleUrl: string,
  /** The server's time: the development clock (DEV_CLOCK) when the server runs on one, so links it checks agree. */
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub, name, ...rest] = args;
  const accounts = createOperatorAccounts({ db, now });
  const cli = { kind: 'cli' } as const;
  try {
    if (sub === 'list') {
      for (const o of await accounts.list())
        out(
          `${o.name}\t${o.roles.join(',')}\t${o.disabledAt ? 'disabled' : o.enrolled ? 'enrolled' : 'not enrolled'}\t${o.liveSessions} sessions`,
        );
      return 0;
    }
    if (!name) throw new AppError('VALIDATION_FAILED', operatorsUsage);
    if (sub === 'add') {
      const roles = rest[0] === '--roles' ? rolesOf(rest[1]) : null;
      if (!roles) throw new AppError('VALIDATION_FAILED', operatorsUsage);
      const added = await accounts.add(cli, name, roles);
      out(`operator ${added.name} added (${roles.join(', ')}); enrolment link, valid 24 h, once:`);
      out(enrolmentLink(consoleUrl, added.token));
      return 0;
    }
    if (sub === 'enrol') {
      const issued = await accounts.reenrol(cli, { name });
      out(`enrolment link for ${name}, valid 24 h, once (password and app must be set again):`);
      out(enrolmentLink(consoleUrl, issued.token));
      return 0;
    }
    const found = await findOperatorByName(db, name);
    if (!found) throw new AppError('NOT_FOUND', `No operator ${name}`);
    if (sub === 'roles') {
      const roles = rolesOf(rest[0]);
      if (!roles) throw new AppError('VALIDATION_FAILED', operatorsUsage);
      await accounts.setRoles(cli, found.id, roles);
      out(`roles of ${name}: ${roles.join(', ')}`);
      return 0;
    }
    if (sub === 'disable') {
      await accounts.disable(cli, found.id);
      out(`operator ${name} disabled, sessions ended`);
      return 0;
    }
    out(operatorsUsage);
    return 2;
  } catch (err) {
    const exists = err instanceof AppError && err.code === 'CONFLICT';
    out(exists ? `${err.message} (exists)` : err instanceof AppError ? err.message : String(err));
    return 1;
  }
}
