import { assert } from './model.ts';

/**
 * The queue in front of a batched statement (TigerBeetle's lesson: amortise the round trip and the
 * commit). Callers `submit` one request each; requests go to `apply` together, up to `batchMax`
 * at a time, and each caller's promise settles with its own outcome once its batch has committed.
 *
 * Batches form by themselves: a request waits until the end of the current event-loop turn
 * (`waitMs` 0, the default: every request made in that turn — e.g. by the callers a finished batch
 * just answered — travels together) or at most `waitMs`; while `inFlightMax` batches are running,
 * the next one gathers. Limits on everything: `batchMax` per batch, `inFlightMax` batches at once
 * (each holds one pooled connection), `queueMax` waiting requests — beyond it `submit` fails at once
 * with `busy()` (the caller retries with the same idempotency key) instead of the queue growing.
 */
export interface BatchQueueOptions<Req, Res> {
  /** Applies one batch; returns one outcome per request, in order (or throws: the batch failed whole). */
  apply: (requests: Req[]) => Promise<Outcome<Res>[]>;
  busy: () => Error;
  batchMax: number;
  waitMs?: number;
  inFlightMax?: number;
  queueMax?: number;
}

export type Outcome<Res> = { ok: Res } | { error: unknown };

interface Pending<Req, Res> {
  request: Req;
  resolve: (r: Res) => void;
  reject: (e: unknown) => void;
}

export interface BatchQueue<Req, Res> {
  submit(request: Req): Promise<Res>;
  /** Requests waiting for a batch (for metrics and tests). */
  readonly queued: number;
  /** Resolves once everything queued so far has been applied. */
  drain(): Promise<void>;
}

export function createBatchQueue<Req, Res>(options: BatchQueueOptions<Req, Res>): BatchQueue<Req, Res> {
  const { batchMax } = options;
  const waitMs = options.waitMs ?? 0;
  const inFlightMax = options.inFlightMax ?? 4;
  const queueMax = options.queueMax ?? 20_000;
  assert(batchMax >= 1 && inFlightMax >= 1 && queueMax >= batchMax, 'batchMax, inFlightMax >= 1; queueMax >= batchMax');
  assert(waitMs >= 0 && waitMs <= 1000, 'waitMs in 0..1000');
  const queue: Pending<Req, Res>[] = [];
  let inFlight = 0;
  let timer: { immediate: NodeJS.Immediate } | { timeout: NodeJS.Timeout } | null = null;
  const idle = new Set<() => void>();

  async function run(batch: Pending<Req, Res>[]): Promise<void> {
    let outcomes: Outcome<Res>[];
    try {
      outcomes = await options.apply(batch.map((p) => p.request));
    } catch (err) {
      // The statement failed as a whole (connection, serialization, a bug): nothing of it committed.
      for (const p of batch) p.reject(err);
      return;
    }
    assert(outcomes.length === batch.length, 'one outcome per request');
    for (const [i, p] of batch.entries()) {
      const outcome = outcomes[i] as Outcome<Res>;
      if ('ok' in outcome) p.resolve(outcome.ok);
      else p.reject(outcome.error);
    }
  }

  function pump(): void {
    while (inFlight < inFlightMax && queue.length > 0) {
      const batch = queue.splice(0, batchMax);
      inFlight += 1;
      void run(batch).finally(() => {
        inFlight -= 1;
        if (queue.length > 0) pump();
        else if (inFlight === 0) for (const done of [...idle]) done();
      });
    }
  }

  function cancelTimer(): void {
    if (timer && 'immediate' in timer) clearImmediate(timer.immediate);
    else if (timer) clearTimeout(timer.timeout);
    timer = null;
  }

  function schedule(): void {
    if (queue.length >= batchMax) {
      cancelTimer();
      pump();
      return;
    }
    if (timer) return;
    const fire = () => {
      timer = null;
      pump();
    };
    timer = waitMs === 0 ? { immediate: setImmediate(fire) } : { timeout: setTimeout(fire, waitMs) };
  }

  return {
    submit(request) {
      if (queue.length >= queueMax) return Promise.reject(options.busy());
      return new Promise<Res>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
    get queued() {
      return queue.length;
    },
    drain() {
      if (queue.length === 0 && inFlight === 0) return Promise.resolve();
      if (timer) {
        cancelTimer();
        pump();
      }
      return new Promise((resolve) => {
        const done = () => {
          idle.delete(done);
          resolve();
        };
        idle.add(done);
      });
    },
  };
}
