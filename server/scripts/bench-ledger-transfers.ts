import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { createLedgerBatcher } from '../src/modules/ledger/batcher.ts';
import { postTransfer } from '../src/modules/ledger/post-transfer.ts';
import { postLegs } from '../src/modules/ledger/repository.ts';
import { alternating, figure, type PhaseResult, phase } from './bench-ledger-phases.ts';
import { ACCOUNTS } from './bench-ledger-seed.ts';

const randomIndex = (n: number) => Math.floor(Math.random() * n);

/** The ways bench-ledger.ts posts a transfer (and the raw baseline), on the seeded accounts. */
function workloads(db: Kysely<Database>, accounts: string[]) {
  const send = (key: string, from: string, to: string) => {
    const amountMinor = BigInt(1 + randomIndex(100));
    const legs = [
      { accountId: from, amountMinor: -amountMinor },
      { accountId: to, amountMinor },
    ];
    return db
      .transaction()
      .execute((trx) => postTransfer(trx, { idempotencyKey: key, kind: 'internal_send', legs }, new Date()));
  };
  const pickOther = (not: string) => {
    for (;;) {
      const id = accounts[randomIndex(accounts.length)] ?? not;
      if (id !== not) return id;
    }
  };
  // The same posting as ONE autocommit statement (its own transaction, no BEGIN/COMMIT round trips):
  // informational, to show what the two extra round trips of a caller's transaction cost.
  const sendAlone = (key: string, from: string, to: string) => {
    const amountMinor = BigInt(1 + randomIndex(100));
    return postLegs(db, {
      idempotencyKey: key,
      kind: 'internal_send',
      createdAt: new Date(),
      metadata: {},
      accountIds: [from, to],
      amountsMinor: [-amountMinor, amountMinor],
    });
  };
  const rawUpdate = (id: number) => sql`update bench_raw set balance = balance + 1 where id = ${id}`.execute(db);

  // Batched posting (modules/ledger/batcher.ts): the same transfers through the queue, one
  // ledger_post_batch statement (one round trip, one durable commit) per batch.
  const batcher = createLedgerBatcher({
    db,
    now: () => new Date(),
    ...(process.env.BENCH_IN_FLIGHT ? { inFlightMax: Number(process.env.BENCH_IN_FLIGHT) } : {}),
  });
  const sendBatched = (key: string, from: string, to: string) => {
    const amountMinor = BigInt(1 + randomIndex(100));
    return batcher.post({
      idempotencyKey: key,
      kind: 'internal_send',
      legs: [
        { accountId: from, amountMinor: -amountMinor },
        { accountId: to, amountMinor },
      ],
    });
  };
  return { send, pickOther, sendAlone, rawUpdate, sendBatched };
}

/** Every transfer phase, in bench-ledger.ts's order: spread (many accounts), then hot (one account). */
export async function measureTransfers(db: Kysely<Database>, accounts: string[]) {
  const hot = accounts[0] ?? '';
  const { send, pickOther, sendAlone, rawUpdate, sendBatched } = workloads(db, accounts);
  // Raw baseline and batched posting alternate in ROUNDS rounds of BENCH_SECONDS / ROUNDS each, and each
  // figure is the median of its rounds: this machine's speed drifts within a run (the raw baseline
  // alone has measured 6,300-10,100/s), and alternating keeps both sides of a ratio under the same drift.
  const rawSpread = await alternating(
    'spread',
    async () => {
      await rawUpdate(1 + randomIndex(ACCOUNTS));
    },
    async (w, n, r) => {
      const from = pickOther('');
      await sendBatched(`batched-spread-${r}-${w}-${n}`, from, pickOther(from));
    },
  );
  const spread = await phase('postTransfer spread', async (w, n) => {
    const from = pickOther('');
    await send(`spread-${w}-${n}`, from, pickOther(from));
  });
  const spreadAlone = await phase('ledger_post autocommit spread', async (w, n) => {
    const from = pickOther('');
    await sendAlone(`spread-alone-${w}-${n}`, from, pickOther(from));
  });
  const rawHot = await alternating(
    'hot',
    async () => {
      await rawUpdate(1);
    },
    async (w, n, r) => {
      await sendBatched(`batched-hot-${r}-${w}-${n}`, pickOther(hot), hot);
    },
  );
  const hotResult = await phase('postTransfer hot', async (w, n) => {
    await send(`hot-${w}-${n}`, pickOther(hot), hot);
  });

  const hotAlone = await phase('ledger_post autocommit hot', async (w, n) => {
    await sendAlone(`hot-alone-${w}-${n}`, pickOther(hot), hot);
  });
  return { rawSpread, spread, spreadAlone, rawHot, hotResult, hotAlone };
}

/** One JSON figure line per measure; returns the errors of every transfer phase. */
export function reportFigures(results: Awaited<ReturnType<typeof measureTransfers>>): number {
  const { rawSpread, spread, spreadAlone, rawHot, hotResult, hotAlone } = results;
  const batchedSpread: PhaseResult = rawSpread.batched;
  const batchedHot: PhaseResult = rawHot.batched;
  const batchedNote = 'batched posting: one ledger_post_batch statement and one durable commit per batch';
  figure('transfers_per_s_spread', batchedSpread.perSecond, '1/s', batchedNote);
  figure('transfers_per_s_hot', batchedHot.perSecond, '1/s', batchedNote);
  figure('raw_sql_tps_spread', rawSpread.perSecond, '1/s');
  figure('raw_sql_tps_hot', rawHot.perSecond, '1/s');
  figure('ledger_to_raw_ratio_spread', batchedSpread.perSecond / rawSpread.perSecond, 'ratio', batchedNote);
  figure('ledger_to_raw_ratio_hot', batchedHot.perSecond / rawHot.perSecond, 'ratio', batchedNote);
  figure('transfer_p99_ms_spread', batchedSpread.p99Ms, 'ms', batchedNote);
  figure('transfer_p99_ms_hot', batchedHot.p99Ms, 'ms', batchedNote);
  const unbatchedNote = 'postTransfer in its own transaction (a posting atomic with other writes)';
  figure('transfers_per_s_spread_unbatched', spread.perSecond, '1/s', unbatchedNote);
  figure('transfers_per_s_hot_unbatched', hotResult.perSecond, '1/s', unbatchedNote);
  const aloneNote = 'ledger_post as one autocommit statement, without the BEGIN/COMMIT of a caller transaction';
  figure('transfers_per_s_spread_autocommit', spreadAlone.perSecond, '1/s', aloneNote);
  figure('transfers_per_s_hot_autocommit', hotAlone.perSecond, '1/s', aloneNote);
  return (
    spread.errors + hotResult.errors + spreadAlone.errors + hotAlone.errors + batchedSpread.errors + batchedHot.errors
  );
}
