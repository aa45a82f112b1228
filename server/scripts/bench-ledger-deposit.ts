import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { log } from './bench-ledger-phases.ts';

const DEPOSIT_BENCH = path.join(import.meta.dirname, 'bench-deposit-latency.ts');
/**
 * The deposit bench mines blocks on anvil and waits for the watcher: well under a minute normally.
 * On this timeout it is sent SIGTERM, which skips its own clean-up (its PostgreSQL may be left running).
 */
const DEPOSIT_BENCH_TIMEOUT_MS = Number(process.env.BENCH_DEPOSIT_TIMEOUT_MS ?? 300_000);

/**
 * Runs the deposit-latency bench as its own process (same Node and tsx loader: process.execArgv)
 * and returns its figure lines, or a null figure with the reason.
 */
export async function depositLatencyLines(): Promise<string> {
  const missing = (note: string) =>
    JSON.stringify({ figure: 'deposit_credit_latency_ms', value: null, unit: 'ms', note });
  if (!existsSync(DEPOSIT_BENCH)) return missing('server/scripts/bench-deposit-latency.ts does not exist yet');
  log('running bench-deposit-latency.ts');
  const child = spawn(process.execPath, [...process.execArgv, DEPOSIT_BENCH], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), DEPOSIT_BENCH_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (exitCodeOf) => resolve(exitCodeOf));
  });
  clearTimeout(timer);
  lines.push(pending);
  const figures = lines.map((l) => l.trim()).filter((l) => l.startsWith('{"figure":'));
  if (code !== 0) return missing(`bench-deposit-latency.ts exited with ${code ?? 'an error or timeout'}`);
  return figures.length > 0 ? figures.join('\n') : missing('bench-deposit-latency.ts printed no figure line');
}
