import { sql } from 'kysely';
import { readChainsFile } from '../../server/src/modules/chain/chain-config.ts';
import { devClient } from '../../server/src/modules/chain/local-chains.ts';
import {
  type CustodyNetworkReport,
  custodyCheck,
  custodyLines,
} from '../../server/src/modules/custody/custody-check.ts';
import { type Drill, waitUntil } from './drill-scenario.ts';

// What the kill drill and bench:scale check once the work and the kills are over.

/**
 * The custody book once nothing is in flight: each hot wallet against its custody account (sweeps ran
 * beside the kills), and how many sweeps were mined.
 */
export async function custodySettled(drill: Drill): Promise<{ custodyOk: boolean; sweeps: number; lines: string[] }> {
  let reports: CustodyNetworkReport[] = [];
  await waitUntil('no transaction in flight', async () => {
    reports = await custodyCheck(drill.db, drill.dataDir, {});
    return reports.every((r) => r.skipped === undefined);
  });
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from sweep_transactions where kind = 'sweep' and state = 'mined'`.execute(drill.db);
  const { lines, ok } = custodyLines(reports);
  return { custodyOk: ok, sweeps: rows[0]?.n ?? 0, lines };
}

/**
 * Effects that happened twice or not at all: deposits not credited exactly once, conversions without
 * exactly one row and two transfers, withdrawals not paid on chain exactly their arrival, e-mails not
 * delivered. 0 is the only good answer. `mailResent`: messages delivered again with the same
 * Message-ID (a worker killed between sending and marking sent), reported apart.
 */
export async function countDuplicateEffects(drill: Drill): Promise<{ duplicateEffects: number; mailResent: number }> {
  const { db } = drill;
  let bad = 0;
  for (const hash of drill.deposits) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ledger_transfers where idempotency_key = ${`deposit:ethereum:${hash}:-1`}`.execute(
      db,
    );
    if (rows[0]?.n !== 1) bad += 1;
  }
  const quotes = drill.converted;
  bad += quotes.length - new Set(quotes).size;
  const { rows } = await sql<{ conversions: number; transfers: number }>`
    select (select count(*)::int from conversions where quote_id = any(${quotes}::uuid[])) as conversions,
           (select count(*)::int from ledger_transfers
            where idempotency_key like 'convert:%' and metadata->>'quoteId' = any(${quotes}::text[])) as transfers`.execute(
    db,
  );
  bad +=
    Math.abs((rows[0]?.conversions ?? 0) - quotes.length) + Math.abs((rows[0]?.transfers ?? 0) - 2 * quotes.length);
  const chain = devClient(readChainsFile(drill.dataDir).ethereum?.rpcUrl ?? '', 31337);
  for (const w of drill.withdrawals)
    if ((await chain.getBalance({ address: w.to })) !== BigInt(w.arrivalMinor)) bad += 1;
  const mail = await sql<{ id: string }>`select id::text from outbox where sent_at is not null`.execute(db);
  const ids = drill.sink.messages.flatMap((m) => /^Message-ID: <outbox-(\d+)@/im.exec(m.raw)?.[1] ?? []);
  const delivered = new Set(ids);
  bad += mail.rows.filter((r) => !delivered.has(r.id)).length;
  const unsent = await sql<{ n: number }>`select count(*)::int as n from outbox where sent_at is null`.execute(db);
  bad += unsent.rows[0]?.n ?? 0;
  return { duplicateEffects: bad, mailResent: ids.length - delivered.size };
}
