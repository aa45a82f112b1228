/**
 * Seals the live registry entries written before issue 35 (same-origin, no digests): each is hashed as
 * served now and re-activated with compare-and-swap on its version, so a deploy landing meanwhile wins.
 * Run by `npm start` before serving; a no-op once every entry carries its digests. An entry whose files
 * are not in the deploy folder is left as it is (warned): the server must still start, and that area
 * shows its retry state as it did before.
 */
import { sealVersion } from './integrity.ts';
import { DEPLOY_DIR, isRemoteName } from './paths.ts';
import { activate, RegistryConflictError, readRegistry, recordDeploy } from './registry.ts';

export async function sealLegacyEntries(): Promise<string[]> {
  const sealedNames: string[] = [];
  for (const [name, entry] of Object.entries((await readRegistry()).remotes)) {
    if (!isRemoteName(name) || entry.integrity) continue;
    const sealed = await sealVersion(entry.manifest, DEPLOY_DIR).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      console.warn(`[start] ${name} ${entry.version}: not sealed, its files are missing (${error.path ?? ''})`);
      return null;
    });
    if (!sealed) continue;
    await recordDeploy(name, entry.version, entry.routes, sealed);
    try {
      await activate(name, entry.version, entry.routes, entry.version, sealed);
      sealedNames.push(name);
    } catch (error) {
      if (!(error instanceof RegistryConflictError)) throw error;
    }
  }
  return sealedNames;
}
