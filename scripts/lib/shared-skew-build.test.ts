/**
 * The skew rule against a real build (issue 35): the fixture remote (scripts/fixtures/skew-remote) is
 * built, as a team would build it, against a lockfile whose react-router is one minor ahead of the
 * host's, and the deploy's own check (checkCandidate, which `npm run deploy` runs on every candidate)
 * refuses it naming the package and both versions; built one patch ahead, it passes.
 * The lockfile is faked from the host's (no other react-router can be installed offline); the share
 * policy reads versions from the lockfile, so the manifest carries them as a real build would.
 * A development build (no minifier): about a second of compile each.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockedVersions, ROOT_LOCKFILE } from '../../federation-shared.ts';
import { sharedVersions } from '../../rspack.base.ts';
import { ROOT } from './paths.ts';
import { run } from './run.ts';
import { checkCandidate, SharedSkewError } from './shared-skew.ts';

const FIXTURE = path.join(ROOT, 'scripts', 'fixtures', 'skew-remote');
const RSPACK = path.join(ROOT, 'node_modules', '.bin', 'rspack');
let work: string;

/** The host's lockfile with react-router's version changed: what the fixture "installed". */
async function lockfileWith(reactRouter: string): Promise<string> {
  const lock = JSON.parse(await readFile(ROOT_LOCKFILE, 'utf8')) as { packages: Record<string, { version?: string }> };
  const all = { ...lock.packages, 'node_modules/react-router': { version: reactRouter } };
  const file = path.join(work, `lock-${reactRouter}.json`);
  await writeFile(file, JSON.stringify({ lockfileVersion: 3, packages: all }));
  return file;
}

async function buildFixture(reactRouter: string): Promise<string> {
  const out = path.join(work, `dist-${reactRouter}`);
  const { version } = JSON.parse(await readFile(path.join(FIXTURE, 'package.json'), 'utf8')) as { version: string };
  await run(RSPACK, ['build', '--mode', 'development', '--output-path', out], {
    cwd: FIXTURE,
    env: { SKEW_LOCKFILE: await lockfileWith(reactRouter), MF_BUILD_VERSION: version, NODE_ENV: 'development' },
  });
  return out;
}

const host = lockedVersions()['react-router'] as string;
const [major, minor, patch] = host.split('.').map(Number) as [number, number, number];

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'skew-build-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('a remote built against other shared versions (fixture build)', () => {
  it('built one minor ahead of the host: the deploy refuses it, naming the package and both versions', async () => {
    const skewed = `${major}.${minor + 1}.0`;
    const dist = await buildFixture(skewed);
    const manifest = JSON.parse(await readFile(path.join(dist, 'mf-manifest.json'), 'utf8')) as {
      shared: { name: string; version: string }[];
    };
    expect(manifest.shared.find((s) => s.name === 'react-router')?.version).toBe(skewed);
    const refused = await checkCandidate('skewFixture', dist, sharedVersions()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SharedSkewError);
    expect((refused as Error).message).toBe(
      `refused: skewFixture 1.9.0 needs react-router ^${major}.${minor + 1}.0 (built against ${skewed}), the host provides ${host}`,
    );
  });

  it('built one patch ahead of the host: compatible, it deploys', async () => {
    const dist = await buildFixture(`${major}.${minor}.${patch + 1}`);
    await expect(checkCandidate('skewFixture', dist, sharedVersions())).resolves.toBeUndefined();
  });
});
