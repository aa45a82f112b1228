/**
 * npm run rollback -- <remote> [version]: switch the registry back to an earlier version. While a canary
 * runs (and no version is named), it ends the canary instead: everyone is back on the stable version.
 * With no version it goes to the version that was live before the live one (history.liveBefore, pushed
 * at every change of the live version), not the one deployed before it: after a canary or a rollback
 * by name those differ. A plain rollback after a plain rollback goes one step further back; to return to
 * the version a rollback left, name it (that is a change like a deploy, which a plain rollback undoes).
 */
import { endCanary } from './lib/canary.ts';
import { sealVersion } from './lib/integrity.ts';
import { DEPLOY_DIR, isRemoteName, REMOTE_NAMES } from './lib/paths.ts';
import { activate, RegistryConflictError, readHistory, readRegistry, rollbackTarget } from './lib/registry.ts';

const [name, wanted] = process.argv.slice(2);
if (!isRemoteName(name)) {
  console.error(`usage: npm run rollback -- <${REMOTE_NAMES.join('|')}> [version]`);
  process.exit(2);
}
const running = (await readRegistry()).remotes[name]?.canary;
if (running && !wanted) {
  try {
    await endCanary(name, running.version);
  } catch (error) {
    if (!(error instanceof RegistryConflictError)) throw error;
    console.error(`the canary of ${name} changed meanwhile (${error.message}): run it again`);
    process.exit(1);
  }
  console.log(`ended the canary ${running.version} of ${name}; everyone is on the stable version`);
  process.exit(0);
}
const history = await readHistory(name);
const back = wanted ? undefined : rollbackTarget(history)?.version;
const target = history.versions.find((v) => v.version === (wanted ?? back));
if (!target) {
  console.error(
    wanted
      ? `${name} has no deployed version ${wanted}`
      : `${name} has no version live before ${history.current ?? '(none)'}`,
  );
  process.exit(1);
}
// Compare-and-swap: only if what is live is still what this rollback was decided from.
const live = (await readRegistry()).remotes[name]?.version ?? null;
if (live !== history.current) {
  console.error(
    `${name} is live at ${live ?? '(none)'} but its history says ${history.current ?? '(none)'}: not rolled back`,
  );
  process.exit(1);
}
// The digests taken at deploy; a version deployed before issue 35 is sealed now, as it is served.
const sealed = target.sealed ?? (await sealVersion(`/remotes/${name}/${target.version}/mf-manifest.json`, DEPLOY_DIR));
try {
  await activate(name, target.version, target.routes, live, sealed, wanted ? 'forward' : 'back');
} catch (error) {
  if (!(error instanceof RegistryConflictError)) throw error;
  console.error(`a deploy or rollback of ${name} landed meanwhile (${error.message}): not rolled back, run it again`);
  process.exit(1);
}
console.log(`rolled back ${name} to ${target.version}`);
