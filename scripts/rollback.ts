/** npm run rollback -- <remote> [version]: switch the registry back to an earlier version. */
import { isRemoteName, REMOTE_NAMES } from './lib/paths.ts';
import { activate, readHistory, setCurrent } from './lib/registry.ts';

const [name, wanted] = process.argv.slice(2);
if (!isRemoteName(name)) {
  console.error(`usage: npm run rollback -- <${REMOTE_NAMES.join('|')}> [version]`);
  process.exit(2);
}
const history = await readHistory(name);
const currentIndex = history.versions.findIndex((v) => v.version === history.current);
const target = wanted
  ? history.versions.find((v) => v.version === wanted)
  : currentIndex > 0
    ? history.versions[currentIndex - 1]
    : undefined;
if (!target) {
  console.error(
    wanted
      ? `${name} has no deployed version ${wanted}`
      : `${name} has no version before ${history.current ?? '(none)'}`,
  );
  process.exit(1);
}
await activate(name, target.version, target.routes);
await setCurrent(name, target.version);
console.log(`rolled back ${name} to ${target.version}`);
