import { cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sharedVersions } from '../../rspack.base.ts';
import { buildApp } from './build.ts';
import { precompress } from './compress.ts';
import { type GoLiveOptions, goLive, liveStable } from './go-live.ts';
import { sealVersion } from './integrity.ts';
import { DEPLOY_DIR, type RemoteName, remoteDir } from './paths.ts';
import { contentVersion, readHistory } from './registry.ts';
import { checkCandidate } from './shared-skew.ts';

interface RemotePackage {
  version: string;
  federation?: { routes?: string[] };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Build one remote into an immutable versioned folder and switch its registry
 * entry to it. A running host picks the new version on its next page load.
 */
export async function deployRemote(name: RemoteName, options: GoLiveOptions = {}): Promise<string> {
  const stableBefore = await liveStable(name);
  const dir = remoteDir(name);
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as RemotePackage;
  const routes = pkg.federation?.routes ?? [];
  if (routes.length === 0) throw new Error(`remotes/${name}/package.json names no federation.routes`);

  const dist = await buildApp(dir, options.buildId ? { BUILD_ID: options.buildId } : {});
  // The skew rule (issue 35 item 4): refused before anything is copied or goes live.
  await checkCandidate(name, dist, sharedVersions()).catch(async (error) => {
    await rm(dist, { recursive: true, force: true });
    throw error;
  });
  const version = await contentVersion(dist, pkg.version);
  const target = path.join(DEPLOY_DIR, 'remotes', name, version);
  if (!(await exists(target))) {
    // Copy beside the target, then rename: a half-copied version is never visible.
    const staging = `${target}.staging-${process.pid}`;
    await mkdir(path.dirname(target), { recursive: true });
    await rm(staging, { recursive: true, force: true });
    await cp(dist, staging, { recursive: true, filter: (src) => !src.endsWith('.map') });
    await precompress(staging);
    await rename(staging, target);
  }
  await rm(dist, { recursive: true, force: true });
  // Hashed as served (issue 35 item 1): the browser runs these bytes or nothing.
  const sealed = await sealVersion(`/remotes/${name}/${version}/mf-manifest.json`, DEPLOY_DIR);
  const known = (await readHistory(name)).versions.find((v) => v.version === version)?.sealed;
  if (known && (known.integrity !== sealed.integrity || known.manifestIntegrity !== sealed.manifestIntegrity)) {
    throw new Error(`${name} ${version} is served with other bytes than when it was deployed: not activated`);
  }
  await goLive(name, version, routes, sealed, options, stableBefore);
  return version;
}
