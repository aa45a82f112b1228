/** Copying a build into its immutable version folder, shared by deploy-remote.ts and deploy-cdn.ts. */
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The version folder a CDN build was made for (its absolute publicPath `<cdn>/<name>/<version>/`), or
 * undefined. "." and ".." are no version (review s8, finding 7): `<cdn>/<name>/../` is the CDN folder itself.
 */
export function cdnVersionOf(publicPath: string, cdn: string, name: string): string | undefined {
  const prefix = `${cdn}/${name}/`;
  if (!publicPath.startsWith(prefix)) return undefined;
  const version = /^([\w.-]{1,128})\/$/.exec(publicPath.slice(prefix.length))?.[1];
  return version && !/^\.+$/.test(version) ? version : undefined;
}

/**
 * Copies `dist` (without source maps) beside `target`, runs `prepare` on the copy (precompress), then
 * renames it into place: a half-copied version is never visible. On any failure, the rename refused
 * because `target` exists included, the staging folder is removed (review s8, finding 7: it was left
 * inside the served folder).
 */
export async function publishFolder(
  dist: string,
  target: string,
  prepare: (staging: string) => Promise<void> = async () => {},
): Promise<void> {
  const staging = `${target}.staging-${process.pid}`;
  await mkdir(path.dirname(target), { recursive: true });
  await rm(staging, { recursive: true, force: true });
  try {
    await cp(dist, staging, { recursive: true, filter: (src) => !src.endsWith('.map') });
    await prepare(staging);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
