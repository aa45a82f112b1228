import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REMOTE_NAMES, ROOT } from './lib/paths.ts';

/**
 * `npm start` under a service manager: SIGTERM to the npm process (what `kill <pid>` and systemd send)
 * stops the API, its PostgreSQL, the local chains and the signer, and frees the port. Runs the real
 * thing on a free port with its own data folder; a ready-made deploy folder keeps it from building.
 */
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function fakeDeploy(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'host'), { recursive: true });
  await writeFile(path.join(dir, 'host', 'index.html'), '<!doctype html><title>t</title>');
  const remotes = Object.fromEntries(
    REMOTE_NAMES.map((name) => [
      name,
      { version: 'test', manifest: `/remotes/${name}/test/mf-manifest.json`, routes: [] },
    ]),
  );
  await writeFile(path.join(dir, 'remotes.json'), JSON.stringify({ remotes }));
}

/**
 * The test's own folders: the data folder, and the cluster's when it lives elsewhere (a checkout the
 * postgres user cannot enter keeps it under /var/lib/cw-wallet; `<data>/pg-location` says where).
 */
async function markersOf(dataDir: string): Promise<string[]> {
  const relocated = await readFile(path.join(dataDir, 'pg-location'), 'utf8').catch(() => '');
  return relocated.trim() ? [dataDir, relocated.trim()] : [dataDir];
}

/** Processes whose command line mentions one of `markers` (the test's own data folders). */
async function processesWith(...markers: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (markers.some((marker) => cmdline.includes(marker)))
      found.push(`${pid} ${cmdline.replaceAll('\0', ' ').slice(0, 120)}`);
  }
  return found;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${seen.slice(-2000)}`)),
      timeoutMs,
    );
    child.on('exit', (code) => reject(new Error(`exited (${code}) before ${pattern}:\n${seen.slice(-2000)}`)));
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
  });
}

let workDir = '';
afterAll(async () => {
  if (!workDir) return;
  // A failed run must not leave its servers behind for the rest of the suite.
  const markers = [workDir, ...(await markersOf(path.join(workDir, 'data')))];
  for (const entry of await processesWith(...markers)) process.kill(Number(entry.split(' ')[0]), 'SIGKILL');
  await rm(workDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints one ready line, and SIGTERM to npm stops the server, PostgreSQL, the chains and the signer', async () => {
    // Under the repository (ignored), not a 0700 /tmp folder: PostgreSQL runs as its own user when we are root.
    await mkdir(path.join(ROOT, '.test-runs'), { recursive: true });
    workDir = await mkdtemp(path.join(ROOT, '.test-runs', 'start-stop-'));
    await chmod(workDir, 0o755);
    const dataDir = path.join(workDir, 'data');
    const staticDir = path.join(workDir, 'deploy');
    await fakeDeploy(staticDir);
    const port = await freePort();
    const devPort = await freePort();
    const opsPort = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        // The dev mailbox has its own loopback listener (issue 38 item 11), not the app port.
        DEV_PORT: String(devPort),
        // The operator console's listener (issue 38 item 5): a free port, not the default 9466.
        OPS_PORT: String(opsPort),
        DATA_DIR: dataDir,
        STATIC_DIR: staticDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    const line = await waitForLine(npm, /CW Wallet is running at \S+.*/, READY_TIMEOUT_MS);
    expect(line).toBe(
      `CW Wallet is running at http://127.0.0.1:${port} (dev mailbox: http://127.0.0.1:${devPort}/dev/mailbox)`,
    );
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).ok).toBe(true);
    const markers = await markersOf(dataDir);
    expect((await processesWith(...markers)).length).toBeGreaterThanOrEqual(3); // PostgreSQL, two anvil chains

    npm.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), STOP_TIMEOUT_MS))]);
    expect(code).not.toBe('timeout');
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    await expect.poll(() => processesWith(...markers), { timeout: 5_000 }).toEqual([]);
  }, 150_000);
});
