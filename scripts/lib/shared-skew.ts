/**
 * The skew rule (issue 35, "shared-version skew refused at deploy"): a remote may go live only if
 * - every shared singleton it declares in its mf-manifest.json accepts the version the host provides
 *   (the host's lockfile, federation-shared.ts), and
 * - it does not ship its own copy of a singleton the host provides (a second React, a second store):
 *   either declared unshared, or missing from shared[] while its chunks contain the package's code.
 * Checked at deploy from the candidate's build, before anything is copied or activated.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { satisfy } from '@module-federation/runtime';
import { SHARED_WORKSPACES } from '../../federation-shared.ts';
import { ROOT } from './paths.ts';

export interface ManifestShared {
  name: string;
  version?: string;
  requiredVersion?: string | false;
  singleton?: boolean;
  assets?: { js?: { sync?: string[]; async?: string[] }; css?: { sync?: string[]; async?: string[] } };
}

export interface CandidateManifest {
  name?: string;
  metaData?: { buildInfo?: { buildVersion?: string } };
  shared?: ManifestShared[];
}

export class SharedSkewError extends Error {
  override readonly name = 'SharedSkewError';
}

/** The shared package a share key belongs to: `react/jsx-runtime` -> `react`, `@cw/shared-ui/toast` -> `@cw/shared-ui`. */
export function packageOfShareKey(key: string, packages: Iterable<string>): string | undefined {
  for (const pkg of packages) if (key === pkg || key.startsWith(`${pkg}/`)) return pkg;
  return undefined;
}

/**
 * Version problems, one line each, naming the remote, the package and both versions; empty when the
 * remote fits the host. `remote` is the label to print (`wallet 1.9.0`).
 */
export function skewProblems(
  remote: string,
  shared: readonly ManifestShared[],
  hostProvides: Record<string, string>,
): string[] {
  const problems = new Set<string>();
  for (const entry of shared) {
    const pkg = packageOfShareKey(entry.name, Object.keys(hostProvides));
    if (pkg === undefined) continue;
    const provided = hostProvides[pkg] as string;
    const range = entry.requiredVersion;
    if (!entry.singleton) {
      problems.add(
        `${remote} bundles its own ${entry.name} ${entry.version ?? ''}; the host shares ${pkg} ${provided} as a singleton`,
      );
    } else if (typeof range === 'string' && !satisfy(provided, range)) {
      problems.add(
        `${remote} needs ${entry.name} ${range} (built against ${entry.version ?? 'an unknown version'}), the host provides ${provided}`,
      );
    }
  }
  return [...problems];
}

/** Which singleton a source-map source is a file of, if any. */
export type SourceOwner = (source: string) => string | undefined;

/**
 * - An npm singleton: any file under its (last) node_modules folder: its code has no lazy parts, so
 *   outside its shared fallback it is a copy.
 * - A workspace singleton (@cw/shared-ui, @cw/shared-state): the files its package.json `exports` name.
 *   A lazy chunk split off a shared fallback (the web3 kit, the QR engine) holds other files of the
 *   workspace and is not a copy; a copy of the package always holds an exported entry.
 */
export function singletonOwner(singletons: readonly string[], workspaceExports: Record<string, string[]>): SourceOwner {
  return (source) => {
    const at = source.lastIndexOf('node_modules/');
    if (at >= 0) {
      const [first, second] = source.slice(at + 'node_modules/'.length).split('/');
      const pkg = first?.startsWith('@') ? `${first}/${second}` : first;
      return pkg !== undefined && singletons.includes(pkg) ? pkg : undefined;
    }
    for (const [pkg, files] of Object.entries(workspaceExports)) {
      if (files.some((file) => source === file || source.endsWith(`/${file}`))) return pkg;
    }
    return undefined;
  };
}

/** The exported entry files of the shared workspaces, as `shared-state/src/session/index.ts`. */
export async function workspaceExports(root: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [pkg, folder] of Object.entries(SHARED_WORKSPACES)) {
    const manifest = JSON.parse(await readFile(path.join(root, folder, 'package.json'), 'utf8')) as {
      exports: Record<string, string>;
    };
    out[pkg] = Object.values(manifest.exports).map((target) => path.posix.join(folder, target));
  }
  return out;
}

/** A chunk of data only (rspack emits no source map for JSON modules, e.g. translations). */
function isDataChunk(code: string): boolean {
  const rest = code.replace(/JSON\.parse\('(?:[^'\\]|\\.)*'\)/g, '');
  return rest.length < code.length && rest.length < 600;
}

/**
 * Copies of a singleton in the candidate's own chunks: every JavaScript file except the shared
 * fallbacks the manifest lists (those run only if the host provides nothing) is read through its
 * source map. A chunk without a source map cannot be checked and is refused (fail closed).
 */
export async function bundledCopies(
  remote: string,
  dist: string,
  manifest: CandidateManifest,
  ownerOf: SourceOwner,
): Promise<string[]> {
  const fallbacks = new Set<string>();
  for (const entry of manifest.shared ?? []) {
    for (const kind of ['js', 'css'] as const) {
      for (const file of [...(entry.assets?.[kind]?.sync ?? []), ...(entry.assets?.[kind]?.async ?? [])]) {
        fallbacks.add(file);
      }
    }
  }
  const files = (await readdir(dist, { recursive: true })).map(String).filter((f) => f.endsWith('.js'));
  const copies = new Map<string, string>();
  const problems: string[] = [];
  for (const file of files.sort()) {
    if (fallbacks.has(file)) continue;
    const map = await readFile(path.join(dist, `${file}.map`), 'utf8').catch(() => null);
    if (map === null && isDataChunk(await readFile(path.join(dist, file), 'utf8'))) continue;
    if (map === null) {
      const why = `${remote}: ${file} has no source map, so it cannot be checked for bundled singletons`;
      // Fail closed, except where the deployer says so out loud: a copy of a version as served (the
      // e2e specs deploy those; a deploy strips maps from what it serves) was checked when it was built.
      if (process.env.DEPLOY_UNCHECKED_WITHOUT_MAPS === '1')
        console.warn(`warning: ${why} (DEPLOY_UNCHECKED_WITHOUT_MAPS=1)`);
      else problems.push(why);
      continue;
    }
    const sources = (JSON.parse(map) as { sources?: string[] }).sources ?? [];
    for (const source of sources) {
      const pkg = ownerOf(source);
      if (pkg !== undefined && !copies.has(pkg)) copies.set(pkg, file);
    }
  }
  const declared = new Set((manifest.shared ?? []).map((entry) => entry.name));
  for (const [pkg, file] of copies) {
    const how = declared.has(pkg) ? 'besides its shared fallback' : 'and does not share it';
    problems.push(`${remote} bundles its own copy of ${pkg} (in ${file}) ${how}; the host provides it as a singleton`);
  }
  return problems;
}

export function assertNoSkew(
  remote: string,
  shared: readonly ManifestShared[],
  hostProvides: Record<string, string>,
): void {
  const problems = skewProblems(remote, shared, hostProvides);
  if (problems.length > 0) throw new SharedSkewError(`refused: ${problems.join('; ')}`);
}

/**
 * Reads the candidate build's manifest and chunks and refuses it, naming every problem, on skew
 * against what the host provides (package -> version) or on a bundled copy of a singleton.
 */
export async function checkCandidate(
  remote: string,
  dist: string,
  hostProvides: Record<string, string>,
): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dist, 'mf-manifest.json'), 'utf8')) as CandidateManifest;
  const version = manifest.metaData?.buildInfo?.buildVersion;
  const label = version ? `${remote} ${version}` : remote;
  const problems = [
    ...skewProblems(label, manifest.shared ?? [], hostProvides),
    ...(await bundledCopies(
      label,
      dist,
      manifest,
      singletonOwner(Object.keys(hostProvides), await workspaceExports(ROOT)),
    )),
  ];
  if (problems.length > 0) throw new SharedSkewError(`refused: ${problems.join('; ')}`);
}
