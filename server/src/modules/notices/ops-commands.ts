import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { Value } from 'typebox/value';
import type { Database } from '../../db/schema.ts';
import { parseAnnouncementFile } from './announcement-file.ts';
import { AnnouncementInput } from './schemas.ts';
import { createNoticesService } from './service.ts';

export const noticesUsage = 'usage: npm run ops -- notices publish <file.md> | list | withdraw <id>';

/** `npm run ops -- notices ...`. Returns the exit code: 0 done, 1 refused, 2 usage. */
export async function runNoticesCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const service = createNoticesService({ db, now });
  const [sub, arg] = args;
  if (sub === 'publish' && arg) {
    let input: AnnouncementInput;
    try {
      input = parseAnnouncementFile(await readFile(arg, 'utf8'));
    } catch (err) {
      out(`cannot publish ${arg}: ${(err as Error).message}`);
      return 1;
    }
    const problem = [...Value.Errors(AnnouncementInput, input)][0];
    if (problem) {
      out(`cannot publish ${arg}: ${problem.instancePath || '/'} ${problem.message}`);
      return 1;
    }
    out(`published ${await service.publish(input, null)}`);
    return 0;
  }
  if (sub === 'list') {
    for (const a of await service.all()) {
      const state = a.withdrawnAt ? 'withdrawn' : 'live';
      out([a.id, a.publishAt, a.category, a.pinned ? 'pinned' : '-', state, a.languages, a.title].join('\t'));
    }
    return 0;
  }
  if (sub === 'withdraw' && arg) {
    try {
      await service.withdraw(arg, null);
    } catch (err) {
      out((err as Error).message);
      return 1;
    }
    out(`withdrawn ${arg}`);
    return 0;
  }
  out(noticesUsage);
  return 2;
}
