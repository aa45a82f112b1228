import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StoredRegistry } from '../http/remote-canary.ts';
import type { RemoteRegistry } from '../http/remote-registry.ts';

export interface StaticDirFixture {
  dir: string;
  /** Writes a file under the folder, creating parents. */
  write(relative: string, content: string | Buffer): Promise<void>;
  /** Replaces remotes.json atomically (write + rename), like the deploy scripts. */
  writeRegistry(registry: RemoteRegistry | StoredRegistry): Promise<void>;
  remove(): Promise<void>;
}

/** A temporary STATIC_DIR for tests. */
export async function createStaticDir(): Promise<StaticDirFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-static-'));
  const write = async (relative: string, content: string | Buffer) => {
    const file = path.join(dir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };
  return {
    dir,
    write,
    async writeRegistry(registry) {
      const tmp = path.join(dir, `.remotes.json.${process.pid}.tmp`);
      await writeFile(tmp, JSON.stringify(registry));
      await rename(tmp, path.join(dir, 'remotes.json'));
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
