/** npm run promote -- <remote>: the running canary becomes the stable version for everyone (issue 35). */
import { promoteCanary } from './lib/canary.ts';
import { isRemoteName, REMOTE_NAMES } from './lib/paths.ts';
import { RegistryConflictError, readRegistry } from './lib/registry.ts';

const [name] = process.argv.slice(2);
if (!isRemoteName(name)) {
  console.error(`usage: npm run promote -- <${REMOTE_NAMES.join('|')}>`);
  process.exit(2);
}
const canary = (await readRegistry()).remotes[name]?.canary;
if (!canary) {
  console.error(`${name} runs no canary: nothing to promote`);
  process.exit(1);
}
try {
  await promoteCanary(name, canary.version);
} catch (error) {
  if (!(error instanceof RegistryConflictError)) throw error;
  console.error(`the canary of ${name} changed meanwhile (${error.message}): not promoted, run it again`);
  process.exit(1);
}
console.log(`promoted ${name} ${canary.version}: everyone gets it`);
