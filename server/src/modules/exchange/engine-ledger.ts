import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import type { AccountRef, Leg } from '../ledger/model.ts';
import { postTransfer } from '../ledger/post-transfer.ts';
import { ensureAccount } from '../ledger/repository.ts';
import type { Trx } from './engine-types.ts';

/** The engine's ledger legs: account references and one keyed transfer in the step's transaction. */
export async function accounts(trx: Trx, refs: AccountRef[]): Promise<string[]> {
  // Creating accounts in one fixed order: two engines never deadlock on the unique index.
  const key = (r: AccountRef) => `${r.kind}|${r.asset}`;
  const order = refs.map((ref, i) => ({ ref, i })).sort((a, b) => (key(a.ref) < key(b.ref) ? -1 : 1));
  const ids: string[] = new Array(refs.length);
  for (const { ref, i } of order) ids[i] = await ensureAccount(trx, ref);
  return ids;
}

export const external = (asset: CoinCode): AccountRef => ({ kind: 'system_external', userId: null, asset });
export const locked = (userId: string, asset: CoinCode): AccountRef => ({ kind: 'user_locked', userId, asset });
export const available = (userId: string, asset: CoinCode): AccountRef => ({ kind: 'user_available', userId, asset });
export const system = (kind: 'system_liquidity' | 'system_fees', asset: CoinCode): AccountRef => ({
  kind,
  userId: null,
  asset,
});

/** Posts legs (amounts by account ref, zero legs dropped) as one 'exchange' transfer. */
export async function post(trx: Trx, key: string, legs: Array<[AccountRef, bigint]>, now: Date, metadata: object) {
  const nonZero = legs.filter(([, amount]) => amount !== 0n);
  const ids = await accounts(
    trx,
    nonZero.map(([ref]) => ref),
  );
  const ledgerLegs: Leg[] = nonZero.map(([, amountMinor], i) => ({ accountId: ids[i] as string, amountMinor }));
  await postTransfer(trx, { idempotencyKey: key, kind: 'exchange', legs: ledgerLegs, metadata: { ...metadata } }, now);
}

/**
 * Moves the coin's liquidity parked in convert's lanes back to lane 0 (migration 0035's function, the one
 * convert calls on a short lane), where the engine's legs post. Its own transaction: the caller retries after.
 */
export async function consolidateLanes(db: Kysely<Database>, coin: CoinCode, at: Date): Promise<void> {
  await sql`select convert_liquidity_consolidate(${coin}, ${at})`.execute(db);
}
