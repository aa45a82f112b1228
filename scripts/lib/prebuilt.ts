/**
 * `npm run deploy -- <remote> --from <dir>`: deploy a build made elsewhere (CI builds once; the e2e
 * specs deploy copies of the build the e2e server made) instead of building here. The deploy still
 * does everything after the build: the skew check, the copy into an immutable folder, the seal from
 * the bytes as served and the switch. The folder is copied, never moved or changed: the caller keeps it.
 */
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RemoteName } from './paths.ts';

interface BuiltManifest {
  name?: string;
  metaData?: { name?: string; publicPath?: string; remoteEntry?: { name?: string; path?: string } };
}

/** Files a deploy makes itself (precompressed siblings) or never serves (source maps). */
const NOT_COPIED = /\.(gz|br|map)$/;

/** The build's `publicPath`: 'auto' (chunks load beside remoteEntry.js) or the absolute folder it was built for. */
export async function publicPathOf(dir: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'mf-manifest.json'), 'utf8')) as BuiltManifest;
  return manifest.metaData?.publicPath ?? 'auto';
}

/** Bound on a build's entries walked for the check below (a remote build has a few hundred). */
const ENTRIES_MAX = 100_000;

/**
 * Refuses a folder holding anything but regular files and directories (review s8, finding 1): `cp`
 * copies a symlink as a symlink, and /remotes/ would then serve whatever it points to (a key file, the
 * database password) to anyone. Devices and FIFOs have no place in a build either. `readdir` does not
 * follow links, so a linked directory is seen as the link it is. Names the first offending path.
 */
export async function assertPlainTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  if (entries.length > ENTRIES_MAX) throw new Error(`${dir} holds over ${ENTRIES_MAX} entries: not a remote build`);
  const odd = entries.find((e) => !e.isFile() && !e.isDirectory());
  if (odd) {
    const relative = path.relative(dir, path.join(odd.parentPath, odd.name));
    throw new Error(`${relative} in ${dir} is not a regular file or directory (symlink, device or FIFO): refused`);
  }
}

/**
 * A private copy of the build in `from` (what the deploy then treats as its build output), refused
 * unless it is a federation build of `name` with its remoteEntry.js.
 */
export async function copyPrebuilt(name: RemoteName, from: string): Promise<string> {
  const source = path.resolve(from);
  const manifestFile = path.join(source, 'mf-manifest.json');
  const manifest = (await readFile(manifestFile, 'utf8').then(
    (text) => JSON.parse(text) as BuiltManifest,
    () => null,
  )) as BuiltManifest | null;
  if (!manifest) throw new Error(`${source} holds no mf-manifest.json: not a remote build`);
  const builtName = manifest.metaData?.name ?? manifest.name;
  if (builtName !== name) throw new Error(`${source} is a build of ${builtName ?? '(no name)'}, not ${name}`);
  const entry = manifest.metaData?.remoteEntry?.name ?? 'remoteEntry.js';
  await stat(path.join(source, manifest.metaData?.remoteEntry?.path ?? '', entry)).catch(() => {
    throw new Error(`${source} has no ${entry}`);
  });
  await assertPlainTree(source);
  const copy = await mkdtemp(path.join(os.tmpdir(), `cw-prebuilt-${name}-`));
  await cp(source, copy, { recursive: true, filter: (src) => !NOT_COPIED.test(src) });
  // Again on the private copy: what the deploy uses, which nobody else can change after the check.
  await assertPlainTree(copy).catch(async (error) => {
    await rm(copy, { recursive: true, force: true });
    throw error;
  });
  return copy;
}
