/** bench-ledger.ts's settings (BENCH_*), its output, and its measured phases. */
export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const clients = Number(process.env.BENCH_CLIENTS ?? 32);
export const ephemeral = process.env.BENCH_EPHEMERAL === '1';
/** BENCH_PHASES=raw,batched runs only the phases whose name contains one of the words (tuning runs). */
export const phaseFilter = (process.env.BENCH_PHASES ?? '').split(',').filter(Boolean);
const skipped: PhaseResult = { perSecond: Number.NaN, p99Ms: Number.NaN, errors: 0 };

export const log = (msg: string) => process.stderr.write(`[bench:ledger] ${msg}\n`);
export const figure = (name: string, value: number | null, unit: string, note?: string) =>
  process.stdout.write(
    `${JSON.stringify({ figure: name, value: value === null ? null : Math.round(value * 100) / 100, unit, ...(note ? { note } : {}) })}\n`,
  );

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export interface PhaseResult {
  perSecond: number;
  p99Ms: number;
  errors: number;
}

/** `clients` loops calling `once(worker, n)` until the deadline; counts completions per second. */
export async function phase(
  name: string,
  once: (worker: number, n: number) => Promise<void>,
  phaseSeconds = seconds,
): Promise<PhaseResult> {
  if (phaseFilter.length > 0 && !phaseFilter.some((word) => name.includes(word))) return skipped;
  const warmUntil = Date.now() + 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      for (let n = 0; Date.now() < warmUntil; n += 1) await once(w, -1 - n);
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const endAt = Date.now() + phaseSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      for (let n = 0; Date.now() < endAt; n += 1) {
        const t0 = performance.now();
        try {
          await once(w, n);
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors += 1;
          if (errors <= 3) log(`${name}: ${String(err)}`);
        }
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const result = { perSecond: latencies.length / elapsedS, p99Ms: percentile(sorted, 99), errors };
  log(
    `${name}: ${latencies.length} in ${elapsedS.toFixed(1)} s = ${result.perSecond.toFixed(0)}/s, ` +
      `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, errors ${errors}`,
  );
  return result;
}

const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Raw and batched phases alternately, ROUNDS times; the medians of each (p99: the median round's). */
export async function alternating(
  label: string,
  raw: (worker: number, n: number) => Promise<void>,
  batched: (worker: number, n: number, round: number) => Promise<void>,
): Promise<PhaseResult & { batched: PhaseResult }> {
  const raws: PhaseResult[] = [];
  const batches: PhaseResult[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    raws.push(await phase(`raw UPDATE ${label} (round ${r + 1})`, raw, seconds / ROUNDS));
    batches.push(await phase(`batched ${label} (round ${r + 1})`, (w, n) => batched(w, n, r), seconds / ROUNDS));
  }
  const summary = (results: PhaseResult[]): PhaseResult => ({
    perSecond: median(results.map((x) => x.perSecond)),
    p99Ms: median(results.map((x) => x.p99Ms)),
    errors: results.reduce((sum, x) => sum + x.errors, 0),
  });
  return { ...summary(raws), batched: summary(batches) };
}
