/**
 * npm run canary -- status <remote>
 * npm run canary -- start <remote> <version> <percent>   (a deployed, sealed version, no rebuild)
 * npm run canary -- pin <remote> <user id> <version>   (support: this user gets that deployed version)
 * npm run canary -- unpin <remote> <user id>
 */
import { pinVisitor, startCanary } from './lib/canary.ts';
import { isRemoteName, REMOTE_NAMES } from './lib/paths.ts';
import { readHistory, readRegistry } from './lib/registry.ts';

const [verb, name, userId, version] = process.argv.slice(2);
const USAGE = `usage: npm run canary -- status|start|pin|unpin <${REMOTE_NAMES.join('|')}> [<version> <percent> | <user id> [<version>]]`;
if (!isRemoteName(name) || !['status', 'start', 'pin', 'unpin'].includes(verb ?? '')) {
  console.error(USAGE);
  process.exit(2);
}
const entry = (await readRegistry()).remotes[name];
if (verb === 'status') {
  console.log(`${name} stable ${entry?.version ?? '(none)'}`);
  if (entry?.canary) console.log(`${name} canary ${entry.canary.version} for ${entry.canary.percent}% of visitors`);
  else console.log(`${name} runs no canary`);
  for (const [who, pinned] of Object.entries(entry?.pins ?? {})) console.log(`pinned ${who} -> ${pinned.version}`);
  process.exit(0);
}
if (verb === 'start') {
  // Arguments: <version> <percent> (userId and version hold them here).
  const known = (await readHistory(name)).versions.find((v) => v.version === userId);
  if (!known?.sealed || !entry) {
    console.error(`${name} has no sealed deployed version ${userId ?? '(none given)'} or no stable version`);
    process.exit(1);
  }
  await startCanary(name, { version: known.version, ...known.sealed }, Number(version), entry.version);
  console.log(`${name} canary ${known.version} for ${version}% of visitors`);
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
