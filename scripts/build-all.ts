/**
 * npm run build: rebuild the host and the operator console, deploy every remote (a new version only
 * where its build changed), and write the SBOM of the production dependencies beside them
 * (DEPLOY_DIR/sbom.cdx.json, served to operators at /api/ops/sbom).
 */
import { deployHost, deployOpsConsole } from './lib/deploy-host.ts';
import { deployRemote } from './lib/deploy-remote.ts';
import { REMOTE_NAMES } from './lib/paths.ts';
import { writeSbom } from './lib/sbom.ts';

await deployHost();
await deployOpsConsole();
for (const name of REMOTE_NAMES) {
  const version = await deployRemote(name);
  console.log(`[build] ${name} ${version}`);
}
console.log(`[build] SBOM ${await writeSbom()}`);
