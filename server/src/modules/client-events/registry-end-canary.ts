import { randomUUID } from 'node:crypto';
import { open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import type { StoredRegistry } from '../../http/remote-canary.ts';

/** How long the watch waits for a deploy's registry lock; past it the decision waits for the next pass. */
const LOCK_WAIT_MS = 3_000;
const LOCK_POLL_MS = 50;

/**
 * Ends a canary in the registry file the way `npm run rollback` does (scripts/lib/canary.ts
 * endCanary): under the same exclusive lock file (`remotes.json.lock`), compare-and-swap on the
 * canary's version, write-then-rename. A canary already ended or replaced is left alone. A stale lock
 * is not taken over here (the deploy scripts do that): the watch only retries on its next pass.
 */
export async function endCanaryInRegistry(registryFile: string, remote: string, canaryVersion: string): Promise<void> {
  const lock = `${registryFile}.lock`;
  const token = `${process.pid}.${randomUUID()}`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${token}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > until) throw new Error(`remotes.json is locked (${lock}); the canary watch retries`);
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  try {
    const registry = JSON.parse(await readFile(registryFile, 'utf8')) as StoredRegistry;
    const entry = registry.remotes?.[remote];
    if (entry?.canary?.version !== canaryVersion) return;
    delete entry.canary;
    const temp = `${registryFile}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify(registry, null, 2)}\n`);
    await rename(temp, registryFile);
  } finally {
    const owner = await readFile(lock, 'utf8').catch(() => null);
    if (owner?.trim() === token) await unlink(lock).catch(() => {});
  }
}
