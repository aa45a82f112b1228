import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEPLOY_DIR, type RemoteName } from './paths.ts';

export interface RegistryEntry {
  version: string;
  manifest: string;
  routes: string[];
}
export interface Registry {
  remotes: Record<string, RegistryEntry>;
}
/** Per remote: every version deployed, oldest first, and which one is live. */
export interface History {
  versions: { version: string; routes: string[]; deployedAt: string }[];
  current: string | null;
}

const registryFile = () => path.join(DEPLOY_DIR, 'remotes.json');
const historyFile = (name: RemoteName) => path.join(DEPLOY_DIR, 'history', `${name}.json`);

async function readJson<T>(file: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
}

/** Write-then-rename: readers see the old file or the new one, never half of one. */
async function writeAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(temp, file);
}

export const readRegistry = () => readJson<Registry>(registryFile(), { remotes: {} });
export const readHistory = (name: RemoteName) => readJson<History>(historyFile(name), { versions: [], current: null });

export async function activate(name: RemoteName, version: string, routes: string[]): Promise<void> {
  const registry = await readRegistry();
  registry.remotes[name] = { version, manifest: `/remotes/${name}/${version}/mf-manifest.json`, routes };
  await writeAtomic(registryFile(), registry);
}

export async function recordDeploy(name: RemoteName, version: string, routes: string[]): Promise<void> {
  const history = await readHistory(name);
  if (!history.versions.some((v) => v.version === version)) {
    history.versions.push({ version, routes, deployedAt: new Date().toISOString() });
  }
  history.current = version;
  await writeAtomic(historyFile(name), history);
}

export async function setCurrent(name: RemoteName, version: string): Promise<void> {
  const history = await readHistory(name);
  history.current = version;
  await writeAtomic(historyFile(name), history);
}

/** A version is named by the package version and a hash of the built files. */
export async function contentVersion(dir: string, packageVersion: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = (await readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of entries) {
    hash.update(path.relative(dir, file));
    hash.update(await readFile(file));
  }
  return `${packageVersion}-${hash.digest('hex').slice(0, 10)}`;
}
