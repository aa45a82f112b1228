/**
 * npm run canary -- status <remote>   (registry, and loads/failures per version when DATABASE_URL is set)
 * npm run canary -- start <remote> <version> <percent> [--auto-rollback [--margin <points>] [--min-loads <n>]]
 *   (a deployed, sealed version, no rebuild)
 * npm run canary -- pin <remote> <user id> <version>   (support: this user gets that deployed version)
 * npm run canary -- unpin <remote> <user id>
 */
import { parseArgs } from 'node:util';
import { AUTO_ROLLBACK_OPTIONS, AUTO_ROLLBACK_USAGE, autoRollbackOf } from './lib/auto-rollback-args.ts';
import { pinVisitor, startCanary } from './lib/canary.ts';
import { formatReports, loadReports } from './lib/canary-reports.ts';
import { isRemoteName, REMOTE_NAMES } from './lib/paths.ts';
import { readHistory, readRegistry } from './lib/registry.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: AUTO_ROLLBACK_OPTIONS });
const [verb, name, userId, version] = positionals;
const USAGE = `usage: npm run canary -- status|start|pin|unpin <${REMOTE_NAMES.join('|')}> [<version> <percent> ${AUTO_ROLLBACK_USAGE} | <user id> [<version>]]`;
if (!isRemoteName(name) || !['status', 'start', 'pin', 'unpin'].includes(verb ?? '')) {
  console.error(USAGE);
  process.exit(2);
}
const entry = (await readRegistry()).remotes[name];
if (verb === 'status') {
  console.log(`${name} stable ${entry?.version ?? '(none)'}`);
  const canary = entry?.canary;
  if (canary) {
    const auto = canary.autoRollback
      ? `, auto-rollback past +${canary.autoRollback.marginPct} points over ${canary.autoRollback.minLoads} loads`
      : '';
    console.log(`${name} canary ${canary.version} for ${canary.percent}% of visitors${auto}`);
  } else console.log(`${name} runs no canary`);
  for (const [who, pinned] of Object.entries(entry?.pins ?? {})) console.log(`pinned ${who} -> ${pinned.version}`);
  const reports = await loadReports(name, canary?.startedAt);
  if (reports === null) console.log('(set DATABASE_URL to see loads and failures per version)');
  else for (const line of formatReports(reports)) console.log(line);
  process.exit(0);
}
if (verb === 'start') {
  // Arguments: <version> <percent> (userId and version hold them here).
  const known = (await readHistory(name)).versions.find((v) => v.version === userId);
  if (!known?.sealed || !entry) {
    console.error(`${name} has no sealed deployed version ${userId ?? '(none given)'} or no stable version`);
    process.exit(1);
  }
  const autoRollback = autoRollbackOf(values);
  await startCanary(name, { version: known.version, ...known.sealed }, Number(version), entry.version, autoRollback);
  console.log(
    `${name} canary ${known.version} for ${version}% of visitors${autoRollback ? ' (auto-rollback on)' : ''}`,
  );
  process.exit(0);
}
if (!userId || !/^[0-9a-f-]{36}$/i.test(userId)) {
  console.error(`${USAGE}\n(a user id is the account's UUID)`);
  process.exit(2);
}
if (verb === 'unpin') {
  await pinVisitor(name, `u:${userId}`, null);
  console.log(`unpinned ${userId} from ${name}`);
  process.exit(0);
}
const deployed = (await readHistory(name)).versions.find((v) => v.version === version);
if (!deployed?.sealed) {
  console.error(`${name} has no sealed deployed version ${version ?? '(none given)'}`);
  process.exit(1);
}
await pinVisitor(name, `u:${userId}`, { version: deployed.version, ...deployed.sealed });
console.log(`pinned ${userId} to ${name} ${deployed.version}`);
