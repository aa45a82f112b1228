/**
 * The skew rule (issue 35 item 4): a remote may go live only if every shared singleton it declares in
 * its mf-manifest.json accepts the version the host provides (the root package.json's pins, shared by
 * rspack.base.ts), and it does not ship its own copy of a singleton the host provides (a second React).
 * Checked at deploy from the candidate's manifest, before anything is copied or activated.
 */
import { satisfy } from '@module-federation/runtime';

export interface ManifestShared {
  name: string;
  version?: string;
  requiredVersion?: string | false;
  singleton?: boolean;
}

export class SharedSkewError extends Error {
  override readonly name = 'SharedSkewError';
}

/** Problems, one line each, naming the package and both versions; empty when the remote fits the host. */
export function skewProblems(
  remote: string,
  shared: readonly ManifestShared[],
  hostProvides: Record<string, string>,
): string[] {
  const problems: string[] = [];
  for (const entry of shared) {
    const provided = hostProvides[entry.name];
    if (provided === undefined) continue;
    const range = entry.requiredVersion;
    if (!entry.singleton) {
      problems.push(
        `${remote} bundles its own ${entry.name} ${entry.version ?? ''}; the host shares ${provided} as a singleton`,
      );
    } else if (typeof range === 'string' && !satisfy(provided, range)) {
      problems.push(
        `${remote} ${entry.version ?? ''} needs ${entry.name} ${range}, the host provides ${provided}`.replace(
          '  ',
          ' ',
        ),
      );
    }
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

/** Reads the candidate build's manifest and refuses it on skew against what the host provides. */
export async function checkCandidate(
  remote: string,
  dist: string,
  hostProvides: Record<string, string>,
): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(`${dist}/mf-manifest.json`, 'utf8')) as { shared?: ManifestShared[] };
  assertNoSkew(remote, manifest.shared ?? [], hostProvides);
}
