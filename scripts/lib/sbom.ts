import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEPLOY_DIR, ROOT } from './paths.ts';

/** Read by the server's GET /api/ops/sbom (server/src/modules/sbom/routes.ts); not in a served folder. */
export const SBOM_FILE_NAME = 'sbom.cdx.json';
const NPM_OUTPUT_MAX_BYTES = 64 * 1024 * 1024;

interface Component {
  'bom-ref': string;
  type: string;
  name: string;
  version: string;
  scope?: string;
  purl: string;
  properties: { name: string; value: string }[];
  hashes?: { alg: string; content: string }[];
  licenses?: { license: { id: string } | { name: string } }[];
}
export interface CycloneDx {
  bomFormat: 'CycloneDX';
  specVersion: string;
  metadata: { properties?: { name: string; value: string }[]; [key: string]: unknown };
  components: Component[];
  [key: string]: unknown;
}
interface LockEntry {
  version?: string;
  name?: string;
  integrity?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
}

/** `node_modules/a/node_modules/@s/b` -> `@s/b` */
function nameOf(location: string, entry: LockEntry): string {
  return entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function componentFromLock(location: string, name: string, entry: LockEntry & { version: string }): Component {
  const purlName = name.startsWith('@') ? `%40${name.slice(1)}` : name;
  const sha512 = entry.integrity?.startsWith('sha512-') ? entry.integrity.slice('sha512-'.length) : null;
  return {
    'bom-ref': `${name}@${entry.version}`,
    type: 'library',
    name,
    version: entry.version,
    scope: 'required',
    purl: `pkg:npm/${purlName}@${entry.version}`,
    properties: [{ name: 'cdx:npm:package:path', value: location }],
    ...(sha512 ? { hashes: [{ alg: 'SHA-512', content: Buffer.from(sha512, 'base64').toString('hex') }] } : {}),
    ...(entry.license ? { licenses: [{ license: { id: entry.license } }] } : {}),
  };
}

/**
 * `npm sbom --omit=dev` leaves out a production package that a dev tool also depends on (react,
 * viem, ... here: npm/cli#7909, its query selector drops any node reached through a dev edge).
 * The lockfile's flags have the right meaning (dev: only reached from devDependencies), so every
 * production package it names that npm left out (and that is installed) is added from its lockfile entry.
 */
export function completeFromLockfile(
  doc: CycloneDx,
  lock: { packages: Record<string, LockEntry> },
  installed: (location: string) => boolean,
): number {
  const present = new Set(doc.components.map((c) => c['bom-ref']));
  let added = 0;
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location.includes('node_modules/') || entry.link || entry.dev || entry.devOptional || !entry.version) continue;
    const name = nameOf(location, entry);
    // Like npm sbom, the installed tree: another platform's optional binary is not part of this build.
    if (present.has(`${name}@${entry.version}`) || !installed(location)) continue;
    doc.components.push(componentFromLock(location, name, { ...entry, version: entry.version }));
    present.add(`${name}@${entry.version}`);
    added += 1;
  }
  doc.metadata.properties = [
    ...(doc.metadata.properties ?? []),
    { name: 'cw:sbom:completed-from-lockfile', value: String(added) },
  ];
  return added;
}

/** The SBOM of the production dependencies, as CycloneDX JSON. */
export async function buildSbom(): Promise<CycloneDx> {
  const { stdout } = await promisify(execFile)('npm', ['sbom', '--sbom-format', 'cyclonedx', '--omit=dev'], {
    cwd: ROOT,
    maxBuffer: NPM_OUTPUT_MAX_BYTES,
  });
  const doc = JSON.parse(stdout) as CycloneDx;
  if (doc.bomFormat !== 'CycloneDX') throw new Error('npm sbom did not return a CycloneDX document');
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  completeFromLockfile(doc, lock, (location) => existsSync(path.join(ROOT, location)));
  return doc;
}

/** Writes DEPLOY_DIR/sbom.cdx.json (write + rename: a reader never sees half a file). */
export async function writeSbom(deployDir = DEPLOY_DIR): Promise<string> {
  const file = path.join(deployDir, SBOM_FILE_NAME);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(await buildSbom(), null, 2)}\n`);
  await rename(tmp, file);
  return file;
}
