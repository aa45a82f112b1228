import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Whether a process is running (EPERM: it is, under another user such as postgres). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readPid(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt((await readFile(file, 'utf8')).split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * A postmaster left running by a Node process that died without stopping it
 * (e.g. SIGKILL) is stopped; one owned by a live process is an error.
 */
export async function handleLeftover(dir: string, dataDir: string, log: (msg: string) => void): Promise<void> {
  const postmaster = await readPid(path.join(dataDir, 'postmaster.pid'));
  if (postmaster === undefined || !isAlive(postmaster)) return;
  const owner = await readPid(path.join(dir, 'pg-owner.pid'));
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `PostgreSQL in ${dataDir} is already in use by process ${owner}. Stop that server first or use another DATA_DIR.`,
    );
  }
  log(`stopping PostgreSQL left running by a previous process (pid ${postmaster})`);
  process.kill(postmaster, 'SIGINT');
  if (!(await waitForExit(postmaster, 15_000))) throw new Error(`PostgreSQL pid ${postmaster} did not stop`);
}
