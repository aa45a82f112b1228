/**
 * Deploys one remote to a team's CDN (issue 35 item 2): built with its absolute publicPath there
 * (REMOTE_PUBLIC_PATH, rspack.base.ts), its chunks carrying sha384 integrity, copied into the CDN's
 * folder, then sealed from the bytes the CDN serves (downloaded, never taken from the build) and made
 * live. The CDN's origin must be pinned in REMOTE_ORIGINS, or the seal refuses it.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { sharedVersions } from '../../rspack.base.ts';
import { pinnedRemoteOrigins } from '../../server/src/http/remote-registry.ts';
import { buildApp } from './build.ts';
import { CDN_DIR } from './cdn-server.ts';
import { type GoLiveOptions, goLive, liveStable } from './go-live.ts';
import { sealVersion } from './integrity.ts';
import { DEPLOY_DIR, type RemoteName, remoteDir } from './paths.ts';
import { assertPlainTree, copyPrebuilt, publicPathOf } from './prebuilt.ts';
import { cdnVersionOf, publishFolder } from './publish-folder.ts';
import { checkCandidate } from './shared-skew.ts';

/**
 * `--from <dir>`: a prebuilt copy and its version folder. A build for an absolute publicPath goes to
 * exactly that folder on this CDN (its chunks are fetched from there); a publicPath 'auto' build loads
 * its chunks beside its entry (relative to the manifest), so it may go to a new folder like a build here.
 */
async function prebuiltForCdn(name: RemoteName, cdn: string, from: string, fresh: string) {
  const dist = await copyPrebuilt(name, from);
  const publicPath = await publicPathOf(dist);
  if (publicPath === 'auto') return { dist, version: fresh };
  const version = cdnVersionOf(publicPath, cdn, name);
  if (!version) {
    await rm(dist, { recursive: true, force: true });
    throw new Error(`${from} was built for ${publicPath}, not a ${cdn}/${name}/<version>/ folder`);
  }
  return { dist, version };
}

export async function deployRemoteToCdn(
  name: RemoteName,
  origin: string,
  options: GoLiveOptions & { from?: string } = {},
): Promise<string> {
  const stableBefore = await liveStable(name);
  const cdn = new URL(origin).origin;
  const pinned = pinnedRemoteOrigins(process.env.REMOTE_ORIGINS);
  // Refused before the build: a deploy to an origin the CSP will not allow would only fail in browsers.
  if (!pinned.includes(cdn)) throw new Error(`${cdn} is not in REMOTE_ORIGINS (${pinned.join(', ') || 'empty'})`);
  const pkg = JSON.parse(await readFile(path.join(remoteDir(name), 'package.json'), 'utf8')) as {
    version: string;
    federation?: { routes?: string[] };
  };
  const routes = pkg.federation?.routes ?? [];
  if (routes.length === 0) throw new Error(`remotes/${name}/package.json names no federation.routes`);
  // The folder is in the build (absolute publicPath), so it is named before: time and randomness, unique.
  const fresh = `${pkg.version}-cdn${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  if (options.from && options.buildId) throw new Error('--build-id names a build made here: not with --from');
  const { dist, version } = options.from
    ? await prebuiltForCdn(name, cdn, options.from, fresh)
    : {
        version: fresh,
        dist: await buildApp(remoteDir(name), {
          REMOTE_PUBLIC_PATH: `${cdn}/${name}/${fresh}/`,
          ...(options.buildId ? { BUILD_ID: options.buildId } : {}),
        }),
      };
  const folder = `${cdn}/${name}/${version}/`;
  // The skew rule (issue 35 item 4), and nothing but files and folders (review s8, finding 1: a symlink
  // would be served): refused before anything is copied or goes live.
  await assertPlainTree(dist)
    .then(() => checkCandidate(name, dist, sharedVersions()))
    .catch(async (error) => {
      await rm(dist, { recursive: true, force: true });
      throw error;
    });
  // A refused copy or switch leaves no staging folder in the served CDN folder (publish-folder.ts).
  await publishFolder(dist, path.join(CDN_DIR, name, version)).finally(() =>
    rm(dist, { recursive: true, force: true }),
  );
  const sealed = await sealVersion(`${folder}mf-manifest.json`, DEPLOY_DIR, pinned);
  await goLive(name, version, routes, sealed, options, stableBefore);
  return version;
}
