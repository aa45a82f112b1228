/**
 * npm run deploy -- <remote> [--build-id <label> | --from <build dir>] [--origin <cdn origin>] [--canary <percent> [--auto-rollback ...]]
 * --from: a build made elsewhere (CI builds once): checked, copied, sealed and switched, not rebuilt.
 */
import { parseArgs } from 'node:util';
import { AUTO_ROLLBACK_OPTIONS, AUTO_ROLLBACK_USAGE, autoRollbackOf } from './lib/auto-rollback-args.ts';
import { deployRemoteToCdn } from './lib/deploy-cdn.ts';
import { deployRemote } from './lib/deploy-remote.ts';
import { isRemoteName, REMOTE_NAMES } from './lib/paths.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'build-id': { type: 'string' },
    from: { type: 'string' },
    origin: { type: 'string' },
    canary: { type: 'string' },
    ...AUTO_ROLLBACK_OPTIONS,
  },
});
const name = positionals[0];
if (!isRemoteName(name) || positionals.length !== 1) {
  console.error(
    `usage: npm run deploy -- <${REMOTE_NAMES.join('|')}> [--build-id <label> | --from <build dir>] [--origin <cdn origin>] [--canary <percent> ${AUTO_ROLLBACK_USAGE}]`,
  );
  process.exit(2);
}
const buildId = values['build-id'];
const canary = values.canary === undefined ? undefined : Number(values.canary);
if (canary !== undefined && !(Number.isInteger(canary) && canary >= 1 && canary <= 100)) {
  console.error(`--canary takes a whole percent 1..100, not ${values.canary}`);
  process.exit(2);
}
const autoRollback = autoRollbackOf(values);
if (autoRollback && canary === undefined) {
  console.error('--auto-rollback goes with --canary <percent>');
  process.exit(2);
}
const options = {
  ...(buildId && { buildId }),
  ...(values.from && { from: values.from }),
  ...(canary !== undefined && { canary }),
  ...(autoRollback && { autoRollback }),
};
// --origin: the version lives on that CDN (which must be in REMOTE_ORIGINS), sealed from what it serves.
const version = values.origin
  ? await deployRemoteToCdn(name, values.origin, options)
  : await deployRemote(name, options);
console.log(
  canary === undefined
    ? `deployed ${name} ${version}; /remotes.json now points to it`
    : `deployed ${name} ${version} as a canary for ${canary}% of visitors (npm run promote / rollback -- ${name})`,
);
