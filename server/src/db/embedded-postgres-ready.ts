import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import pg from 'pg';

async function tail(file: string, lines = 20): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** Resolves once the server answers a query; fails with its log's tail when it exits or takes too long. */
export async function waitUntilReady(
  url: string,
  child: ChildProcess,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`PostgreSQL exited during start-up:\n${await tail(logFile)}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not become ready in ${timeoutMs} ms:\n${await tail(logFile)}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
