import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AccountKind, AccountRef, Leg, TransferKind } from './model.ts';

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

export interface LockedAccount {
  id: string;
  kind: AccountKind;
  userId: string | null;
  asset: string;
  balanceMinor: bigint;
}

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
      .executeTakeFirst();
  const existing = await find();
  if (existing) return existing.id;
  const inserted = await db
    .insertInto('ledger_accounts')
    .values({ kind: ref.kind, user_id: ref.userId, asset: ref.asset })
    .onConflict((oc) => oc.columns(['kind', 'user_id', 'asset']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? (await find())?.id ?? raise(`ledger account ${ref.kind}/${ref.asset} vanished`);
}

function raise(message: string): never {
  throw new Error(message);
}

/**
 * Locks the accounts FOR UPDATE in ascending id order. Every posting locks in this one order,
 * so two transfers touching the same accounts wait for each other instead of deadlocking.
 * (PostgreSQL locks rows as the sorted result is produced: LockRows runs above Sort.)
 */
export async function lockAccounts(trx: Trx, accountIds: readonly string[]): Promise<LockedAccount[]> {
  const rows = await trx
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'user_id', 'asset', 'balance'])
    .where('id', 'in', accountIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AccountKind,
    userId: r.user_id,
    asset: r.asset,
    balanceMinor: BigInt(r.balance),
  }));
}

/** Inserts the transfer, or returns undefined when its idempotency key exists (waits for a concurrent holder). */
export async function insertTransfer(
  trx: Trx,
  values: { idempotencyKey: string; kind: TransferKind; createdAt: Date; metadata: Record<string, unknown> },
): Promise<{ id: string; createdAt: Date } | undefined> {
  const row = await trx
    .insertInto('ledger_transfers')
    .values({
      idempotency_key: values.idempotencyKey,
      kind: values.kind,
      created_at: values.createdAt,
      metadata: JSON.stringify(values.metadata),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning(['id', 'created_at'])
    .executeTakeFirst();
  return row && { id: row.id, createdAt: row.created_at };
}

export async function findTransferByKey(
  db: Db,
  idempotencyKey: string,
): Promise<{ id: string; kind: TransferKind; createdAt: Date; legs: Leg[] } | undefined> {
  const transfer = await db
    .selectFrom('ledger_transfers')
    .select(['id', 'kind', 'created_at'])
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  if (!transfer) return undefined;
  const entries = await db
    .selectFrom('ledger_entries')
    .select(['account_id', 'amount'])
    .where('transfer_id', '=', transfer.id)
    .orderBy('account_id')
    .execute();
  return {
    id: transfer.id,
    kind: transfer.kind as TransferKind,
    createdAt: transfer.created_at,
    legs: entries.map((e) => ({ accountId: e.account_id, amountMinor: BigInt(e.amount) })),
  };
}

export interface BalanceChange {
  accountId: string;
  amountMinor: bigint;
  beforeMinor: bigint;
  afterMinor: bigint;
}

/** One UPDATE for all legs, then one INSERT of the journal entries. */
export async function applyChanges(
  trx: Trx,
  transferId: string,
  changes: readonly BalanceChange[],
  createdAt: Date,
): Promise<void> {
  const values = sql.join(changes.map((c) => sql`(${c.accountId}::bigint, ${c.afterMinor.toString()}::numeric)`));
  const result = await sql`
    update ledger_accounts as a set balance = v.balance
    from (values ${values}) as v(id, balance)
    where a.id = v.id`.execute(trx);
  if (Number(result.numAffectedRows) !== changes.length) throw new Error('ledger: balance update missed an account');
  await trx
    .insertInto('ledger_entries')
    .values(
      changes.map((c) => ({
        transfer_id: transferId,
        account_id: c.accountId,
        amount: c.amountMinor.toString(),
        balance_before: c.beforeMinor.toString(),
        balance_after: c.afterMinor.toString(),
        created_at: createdAt,
      })),
    )
    .execute();
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
