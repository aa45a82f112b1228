import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AccountRef, TransferKind } from './model.ts';

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/**
 * The account's id, creating it (balance 0) on first use. Reads first: after the first use the
 * account exists and this is one indexed SELECT. A concurrent creator is settled by the unique key.
 */
export async function ensureAccount(db: Db, ref: AccountRef): Promise<string> {
  const find = () =>
    db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('kind', '=', ref.kind)
      .where((eb) => (ref.userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', ref.userId)))
      .where('asset', '=', ref.asset)
      // Lane 0: the account itself (lanes 1.. are conversions' sub-accounts, migration 0034).
      .where('lane', '=', 0)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return existing.id;
  const inserted = await db
    .insertInto('ledger_accounts')
    .values({ kind: ref.kind, user_id: ref.userId, asset: ref.asset })
    .onConflict((oc) => oc.columns(['kind', 'user_id', 'asset', 'lane']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? (await find())?.id ?? raise(`ledger account ${ref.kind}/${ref.asset} vanished`);
}

function raise(message: string): never {
  throw new Error(message);
}

/** What `ledger_post` answers: the transfer posted now, or the one posted earlier under the same key. */
export interface PostedTransfer {
  transferId: string;
  created: boolean;
  createdAt: Date;
}

export interface PostingValues {
  idempotencyKey: string;
  kind: TransferKind;
  createdAt: Date;
  metadata: Record<string, unknown>;
  amountsMinor: readonly bigint[];
}

interface PostedRow {
  transfer_id: string;
  created: boolean;
  created_at: Date;
}

const postedTransfer = (row: PostedRow | undefined): PostedTransfer => {
  if (!row) throw new Error('ledger_post returned no row');
  return { transferId: row.transfer_id, created: row.created, createdAt: row.created_at };
};

/**
 * One round trip: the SQL function `ledger_post` (migration 0011) inserts the transfer (ON CONFLICT
 * on the idempotency key), locks the accounts FOR UPDATE in ascending id order, refuses a balance
 * below zero (SQLSTATE LG001), updates the balances and appends the entries with before/after.
 * The i-th amount goes to the i-th account id. Given a transaction it joins it (postTransfer);
 * given the pool it is one autocommit statement, i.e. its own transaction (bench:ledger).
 */
export async function postLegs(
  db: Db,
  values: PostingValues & { accountIds: readonly string[] },
): Promise<PostedTransfer> {
  const { rows } = await sql<PostedRow>`
    select p.transfer_id, p.created, p.created_at
    from ledger_post(
      ${values.idempotencyKey}, ${values.kind}, ${values.createdAt}, ${JSON.stringify(values.metadata)}::jsonb,
      ${values.accountIds}::bigint[], ${values.amountsMinor.map(String)}::numeric[]
    ) p`.execute(db);
  return postedTransfer(rows[0]);
}

/**
 * The same as postLegs, with the accounts named by (kind, user, asset): `ledger_account_ids` resolves
 * them (creating missing accounts in one fixed order) in the same statement. Returns the account ids
 * in the order of `accounts`.
 */
export async function postRefLegs(
  trx: Trx,
  values: PostingValues & { accounts: readonly AccountRef[] },
): Promise<PostedTransfer & { accountIds: string[] }> {
  const { rows } = await sql<PostedRow & { account_ids: string[] }>`
    select r.ids::text[] as account_ids, p.transfer_id, p.created, p.created_at
    from ledger_account_ids(
      ${values.accounts.map((a) => a.kind)}::text[],
      ${values.accounts.map((a) => a.userId)}::uuid[],
      ${values.accounts.map((a) => a.asset)}::text[]
    ) as r(ids)
    cross join lateral ledger_post(
      ${values.idempotencyKey}, ${values.kind}, ${values.createdAt}, ${JSON.stringify(values.metadata)}::jsonb,
      r.ids, ${values.amountsMinor.map(String)}::numeric[]
    ) p`.execute(trx);
  const row = rows[0];
  return { ...postedTransfer(row), accountIds: row?.account_ids ?? [] };
}

/** A user's available and locked balance per asset (only assets with an account). */
export async function userBalances(
  db: Db,
  userId: string,
): Promise<{ asset: string; availableMinor: bigint; lockedMinor: bigint }[]> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['kind', 'asset', 'balance'])
    .where('user_id', '=', userId)
    .execute();
  const byAsset = new Map<string, { asset: string; availableMinor: bigint; lockedMinor: bigint }>();
  for (const row of rows) {
    const entry = byAsset.get(row.asset) ?? { asset: row.asset, availableMinor: 0n, lockedMinor: 0n };
    if (row.kind === 'user_available') entry.availableMinor = BigInt(row.balance);
    else if (row.kind === 'user_locked') entry.lockedMinor = BigInt(row.balance);
    byAsset.set(row.asset, entry);
  }
  return [...byAsset.values()];
}
