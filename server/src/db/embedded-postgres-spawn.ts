import { type ChildProcess, spawn } from 'node:child_process';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Ids } from './embedded-postgres-reach.ts';

/**
 * `ip netns exec <ns> setpriv ... postgres ...`: both exec, so the child's pid is the postmaster's (our
 * stop and the drills' SIGKILL reach it); `ip netns exec` needs root, setpriv then drops to postgres.
 */
function inNetns(
  name: string,
  ids: Ids | undefined,
  postgres: string,
  args: string[],
): readonly [string, string[], Ids | undefined] {
  if (!ids) throw new Error('a network namespace needs root (ip netns exec); run as root or without netns');
  const drop = ['setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups', '--'];
  return ['ip', ['netns', 'exec', name, ...drop, postgres, ...args], undefined] as const;
}

/**
 * Starts the postmaster on `dataDir` (its output to `dir/pg.log`) and records this process as its owner
 * (`dir/pg-owner.pid`, read by handleLeftover). Does not wait until it accepts connections.
 */
export async function spawnPostgres(
  postgres: string,
  run: {
    dir: string;
    dataDir: string;
    port: number;
    host: string;
    ids: Ids | undefined;
    ephemeral: boolean;
    settings: Readonly<Record<string, string>> | undefined;
    /** The network namespace to run in (EmbeddedPostgresOptions.netns). */
    netns: string | undefined;
  },
): Promise<ChildProcess> {
  const { dir, dataDir, port, host, ids, ephemeral } = run;
  const logFile = path.join(dir, 'pg.log');
  const logHandle = await open(logFile, 'w');
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    `listen_addresses=${host}`,
    '-c',
    'unix_socket_directories=',
    ...(ephemeral
      ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300']
      : []),
    ...Object.entries(run.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  // Own process group: a terminal Ctrl+C reaches only Node, which stops postgres last.
  const [command, argv, as] = run.netns ? inNetns(run.netns, ids, postgres, args) : ([postgres, args, ids] as const);
  const child = spawn(command, argv, {
    ...as,
    detached: true,
    cwd: '/',
    stdio: ['ignore', logHandle.fd, logHandle.fd],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  await logHandle.close();
  await writeFile(path.join(dir, 'pg-owner.pid'), `${process.pid}\n`);

  return child;
}
