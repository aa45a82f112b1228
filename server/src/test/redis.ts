import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../db/embedded-postgres.ts';

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
const READY_TIMEOUT_MS = 10_000;

export interface TestRedis {
  readonly url: string;
  /** A client of the file's server (the stores under test take it). */
  readonly client: Redis;
}

/**
 * A real redis-server (Debian's, installed by the test command's servers stage) per test file, on a
 * free loopback port, in memory only (no RDB, no AOF), stopped after the file. Register it before
 * hooks that need its client: beforeAll hooks run in order.
 */
export function useTestRedis(): TestRedis {
  let child: ChildProcess | undefined;
  let client: Redis | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    if (!existsSync(REDIS_SERVER)) {
      throw new Error(`${REDIS_SERVER} is missing: npm test installs it (apt-get install -y redis-server)`);
    }
    const port = await freePort();
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await readyLine(child);
    url = `redis://127.0.0.1:${port}`;
    client = new Redis(url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await client?.quit().catch(() => undefined);
    child?.kill('SIGTERM');
  });
  return {
    get url() {
      if (url === undefined) throw new Error('redis not started (use inside tests or hooks)');
      return url;
    },
    get client() {
      if (client === undefined) throw new Error('redis not started (use inside tests or hooks)');
      return client;
    },
  };
}

function readyLine(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server not ready: ${out.slice(-500)}`)), READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      // Keep draining its log without keeping it.
      child.stdout?.off('data', onData).resume();
      resolve();
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`));
    });
  });
}
