import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** SIGKILL to the postmaster's whole process group (backends too): the machine dying, not a shutdown. */
export async function killCluster(dataDir: string): Promise<void> {
  const pid = Number.parseInt((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 1) throw new Error('no postmaster pid');
  process.kill(-pid, 'SIGKILL');
}
