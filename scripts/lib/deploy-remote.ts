import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sharedVersions } from '../../rspack.base.ts';
import { buildApp } from './build.ts';
import { precompress } from './compress.ts';
import { type GoLiveOptions, goLive, liveStable } from './go-live.ts';
import { sealVersion } from './integrity.ts';
import { DEPLOY_DIR, type RemoteName, remoteDir } from './paths.ts';
import { assertPlainTree, copyPrebuilt, publicPathOf } from './prebuilt.ts';
import { publishFolder } from './publish-folder.ts';
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

export interface DeployOptions extends GoLiveOptions {
  /** A build made elsewhere (`deploy --from <dir>`, prebuilt.ts): deployed instead of building here. */
  from?: string;
}

/** The build output a deploy works on: a fresh build, or a private copy of a prebuilt one. */
async function buildOutput(name: RemoteName, dir: string, options: DeployOptions): Promise<string> {
  if (!options.from) return buildApp(dir, options.buildId ? { BUILD_ID: options.buildId } : {});
  if (options.buildId) throw new Error('--build-id names a build made here: not with --from');
  const copy = await copyPrebuilt(name, options.from);
  const publicPath = await publicPathOf(copy);
  // Served from our own /remotes/<name>/<version>/: only a build whose chunks load beside its entry.
  if (publicPath !== 'auto') {
    await rm(copy, { recursive: true, force: true });
    throw new Error(
      `${options.from} was built for ${publicPath}: deploy it with --origin, or build with publicPath auto`,
    );
  }
  return copy;
}

/**
 * Build one remote (or take a prebuilt one) into an immutable versioned folder and switch its
 * registry entry to it. A running host picks the new version on its next page load.
 */
export async function deployRemote(name: RemoteName, options: DeployOptions = {}): Promise<string> {
  const stableBefore = await liveStable(name);
  const dir = remoteDir(name);
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as RemotePackage;
  const routes = pkg.federation?.routes ?? [];
  if (routes.length === 0) throw new Error(`remotes/${name}/package.json names no federation.routes`);

  const dist = await buildOutput(name, dir, options);
  // The skew rule (issue 35 item 4), and nothing but files and folders (review s8, finding 1: a symlink
  // would be served): refused before anything is copied or goes live.
  await assertPlainTree(dist)
    .then(() => checkCandidate(name, dist, sharedVersions()))
    .catch(async (error) => {
      await rm(dist, { recursive: true, force: true });
      throw error;
    });
  const version = await contentVersion(dist, pkg.version);
  const target = path.join(DEPLOY_DIR, 'remotes', name, version);
  if (!(await exists(target))) {
    // Copy beside the target, then rename: a half-copied version is never visible, a failed one is removed.
    // Chunks unchanged since the live version keep its compressed siblings (compress.ts).
    const live = stableBefore ? [path.join(DEPLOY_DIR, 'remotes', name, stableBefore)] : [];
    await publishFolder(dist, target, (staging) => precompress(staging, live)).catch(async (error) => {
      await rm(dist, { recursive: true, force: true });
      throw error;
    });
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
