import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { listOpenChainAlerts, resolveChainAlert } from './chain-alerts.ts';
import { listOpenAlerts, resolveAlert } from './reorg-alerts.ts';

/**
 * `npm run ops -- reorgs list` (open alerts of reorgs deeper than the confirmation count) and
 * `... reorgs resolve <id> --note "<what was done>"` (lifts the alert's withdrawal freezes); the chain
 * alerts (migration 0055: node on another chain, no fork point, a re-mined transfer that differs) are
 * listed too and closed with `... reorgs resolve-chain <id> --note "..."`.
 * Exit code: 0 done, 1 refused (not an open alert), 2 usage.
 */
export const reorgsUsage =
  'usage: npm run ops -- reorgs list | resolve <id> --note "<what was done>" | resolve-chain <id> --note "<what was done>"';

export async function runReorgsCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub, id] = args;
  if (sub === 'list') {
    const alerts = await listOpenAlerts(db);
    for (const a of alerts) {
      out(
        [
          a.id,
          a.network,
          `fork at block ${a.forkBlock}`,
          `${a.deposits} credited deposit(s)`,
          `${a.users} user(s) frozen`,
          a.createdAt.toISOString(),
        ].join('\t'),
      );
    }
    if (alerts.length === 0) out('no open reorg alerts');
    for (const a of await listOpenChainAlerts(db)) {
      out(['chain-alert', a.id, a.network, a.kind, a.detail, a.createdAt.toISOString()].join('\t'));
    }
    return 0;
  }
  const noteAt = args.indexOf('--note');
  const note = noteAt >= 0 ? args[noteAt + 1]?.trim() : undefined;
  if ((sub !== 'resolve' && sub !== 'resolve-chain') || !id || !/^\d{1,18}$/.test(id) || !note || note.length > 500) {
    out(reorgsUsage);
    return 2;
  }
  if (sub === 'resolve-chain') {
    const done = await resolveChainAlert(db, id, note, now());
    out(done ? `chain alert ${id} resolved` : `chain alert ${id} is not open`);
    return done ? 0 : 1;
  }
  if (!(await resolveAlert(db, id, note, now()))) {
    out(`reorg alert ${id} is not open`);
    return 1;
  }
  out(`reorg alert ${id} resolved; its users' withdrawals are no longer held`);
  return 0;
}
