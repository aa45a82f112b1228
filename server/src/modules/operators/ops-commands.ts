import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { createPasswordHasher } from '../auth/password-hashing.ts';
import { createOperatorsService } from './service.ts';

export const operatorsUsage = 'usage: npm run ops -- operators add <name> | password <name>   (password on stdin)';

/**
 * `npm run ops -- operators add <name>` / `password <name>`: the password is read from stdin (typed,
 * or piped by a deployment script), never from the command line where `ps` and shell history see it.
 */
export async function runOperatorsCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  readPassword: () => Promise<string>,
): Promise<number> {
  const [sub, name] = args;
  if ((sub !== 'add' && sub !== 'password') || !name) {
    out(operatorsUsage);
    return 2;
  }
  const hasher = createPasswordHasher();
  try {
    const service = createOperatorsService({ db, now: () => new Date(), hasher });
    const password = await readPassword();
    if (sub === 'add') out(`operator ${(await service.add(name, password)).name} added`);
    else {
      await service.setPassword(name, password);
      out(`password of ${name} changed`);
    }
    return 0;
  } catch (err) {
    const unique = (err as { code?: string }).code === '23505';
    out(unique ? `operator ${name} exists` : err instanceof AppError ? err.message : String(err));
    return 1;
  } finally {
    await hasher.close();
  }
}
