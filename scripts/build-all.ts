/** npm run build: rebuild the host and deploy every remote (a new version only where its build changed). */
import { deployHost } from './lib/deploy-host.ts';
import { deployRemote } from './lib/deploy-remote.ts';
import { REMOTE_NAMES } from './lib/paths.ts';

await deployHost();
for (const name of REMOTE_NAMES) {
  const version = await deployRemote(name);
  console.log(`[build] ${name} ${version}`);
}
