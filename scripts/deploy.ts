/** npm run deploy -- <remote> [--build-id <label>] */
import { deployRemote } from './lib/deploy-remote.ts';
import { isRemoteName, REMOTE_NAMES } from './lib/paths.ts';

const [name, flag, buildId] = process.argv.slice(2);
if (!isRemoteName(name)) {
  console.error(`usage: npm run deploy -- <${REMOTE_NAMES.join('|')}> [--build-id <label>]`);
  process.exit(2);
}
const version = await deployRemote(name, flag === '--build-id' && buildId ? { buildId } : {});
console.log(`deployed ${name} ${version}; /remotes.json now points to it`);
