import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { raiseChainAlert } from '../deposits/chain-alerts.ts';

/**
 * Reading an address's history, newest first, page after page (TronGrid, Esplora), so that neither
 * spam nor a flood loses a deposit (issue 39). A read stops at a page holding a recorded transaction
 * (everything older was read before), at the end of the history, or after MAX_HISTORY_PAGES. A read
 * that hit the cap left unread history behind it: where it stopped is stored (address_history_reads,
 * migration 0059, in the transaction that records what it found) and the next read of that listing
 * goes on from there, not from the newest page (which would stop at the first recorded transaction and
 * never reach what lies behind the flood); hitting the cap raises a chain alert.
 */

/** Pages of one listing read per tick at most (a flood's history spreads over several ticks). */
export const MAX_HISTORY_PAGES = 40;

/** Which of these transaction hashes are recorded deposits of the address. */
export type RecordedCheck = (txHashes: readonly string[]) => Promise<Set<string>>;

export interface HistoryPage<T> {
  items: T[];
  /** The page's transaction ids (for the recorded check). */
  ids: string[];
  /** Where the next page starts (a txid, a fingerprint); undefined at the end of the history. */
  next: string | undefined;
}

/** Where a listing's read of this tick ended: finished (resumeFrom null) or to go on at resumeFrom. */
export interface HistoryUpdate {
  listing: string;
  resumeFrom: string | null;
  /** It had an unfinished read before (the row exists). */
  hadRow: boolean;
}

export interface HistoryCursor {
  recorded: RecordedCheck;
  /** The stored resume point of the listing, if its last read was unfinished. */
  resumeFrom(listing: string): string | undefined;
  /** Listings that have a row. */
  known: ReadonlySet<string>;
}

/** One tick's read of a listing: from the stored resume point if any, else from the newest page. */
export async function readHistory<T>(
  cursor: HistoryCursor,
  listing: string,
  readPage: (from: string | undefined) => Promise<HistoryPage<T>>,
): Promise<{ items: T[]; update: HistoryUpdate }> {
  const items: T[] = [];
  let from = cursor.resumeFrom(listing);
  const hadRow = cursor.known.has(listing);
  for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
    const p = await readPage(from);
    items.push(...p.items);
    if (!p.next || p.ids.length === 0 || (await cursor.recorded(p.ids)).size > 0) {
      return { items, update: { listing, resumeFrom: null, hadRow } };
    }
    from = p.next;
  }
  return { items, update: { listing, resumeFrom: from ?? null, hadRow } };
}

/** The stored read state of the address's listings. */
export async function loadHistoryCursor(
  db: Kysely<Database>,
  network: NetworkCode,
  address: string,
  recorded: RecordedCheck,
): Promise<HistoryCursor> {
  const rows = await db
    .selectFrom('address_history_reads')
    .select(['listing', 'resume_from'])
    .where('network', '=', network)
    .where('address', '=', address)
    .execute();
  const resume = new Map(rows.map((r) => [r.listing, r.resume_from ?? undefined]));
  return { recorded, resumeFrom: (listing) => resume.get(listing), known: new Set(resume.keys()) };
}

/** Stores where each listing's read ended (in the recording transaction); a read that hit the cap alerts. */
export async function saveHistoryUpdates(
  trx: Transaction<Database>,
  network: NetworkCode,
  address: string,
  updates: readonly HistoryUpdate[],
  at: Date,
): Promise<void> {
  for (const u of updates) {
    if (u.resumeFrom === null && !u.hadRow) continue; // finished, never unfinished: nothing to keep
    const finished = u.resumeFrom === null;
    await trx
      .insertInto('address_history_reads')
      .values({ network, address, listing: u.listing, resume_from: u.resumeFrom, finished, updated_at: at })
      .onConflict((oc) =>
        oc
          .columns(['network', 'address', 'listing'])
          .doUpdateSet({ resume_from: u.resumeFrom, finished, updated_at: at }),
      )
      .execute();
    if (!finished) {
      await raiseChainAlert(
        trx,
        {
          network,
          kind: 'history_page_cap',
          dedupeKey: `${u.listing}:${address}`,
          detail: `more than ${MAX_HISTORY_PAGES} pages of new history on ${address} (${u.listing}): the read goes on from where it stopped each tick; new deposits on it wait until it has caught up (an address under a flood)`,
        },
        at,
      );
    }
  }
}
