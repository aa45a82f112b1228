import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Rows per list on the user page, newest first: a user page is a summary, the ledger pages further. */
export const PAGE_ROWS = 20;

type Db = Kysely<Database>;

/** Balances per asset: available, locked (withdrawals under way, open orders) and rewards not yet paid. */
export async function balances(db: Db, userId: string) {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['asset', 'kind', 'balance'])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['user_available', 'user_locked', 'user_rewards'])
    .orderBy('asset')
    .execute();
  const byAsset = new Map<
    string,
    { asset: string; availableMinor: string; lockedMinor: string; rewardsMinor: string }
  >();
  for (const r of rows) {
    const entry = byAsset.get(r.asset) ?? { asset: r.asset, availableMinor: '0', lockedMinor: '0', rewardsMinor: '0' };
    if (r.kind === 'user_available') entry.availableMinor = r.balance;
    else if (r.kind === 'user_locked') entry.lockedMinor = r.balance;
    else entry.rewardsMinor = r.balance;
    byAsset.set(r.asset, entry);
  }
  return [...byAsset.values()];
}

export function deposits(db: Db, userId: string) {
  return db
    .selectFrom('deposits')
    .select(['id', 'coin', 'network', 'tx_hash', 'to_address', 'amount_minor', 'state', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

export function withdrawals(db: Db, userId: string) {
  return db
    .selectFrom('withdrawals')
    .select(['id', 'coin', 'network', 'address', 'amount_minor', 'fee_minor', 'state', 'reason', 'tx_hash', 'origin'])
    .select('created_at')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

export function conversions(db: Db, userId: string) {
  return db
    .selectFrom('conversions')
    .select(['id', 'from_asset', 'to_asset', 'amount_minor', 'fee_minor', 'receive_minor', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

export function exchangeOrders(db: Db, userId: string) {
  return db
    .selectFrom('exchange_orders')
    .select(['id', 'state', 'send_coin', 'send_network', 'send_amount_minor', 'receive_coin', 'receive_network'])
    .select(['estimated_receive_minor', 'payout_amount_minor', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

export function rampOrders(db: Db, userId: string) {
  return db
    .selectFrom('ramp_orders')
    .select(['id', 'side', 'state', 'state_reason', 'coin', 'network', 'fiat', 'fiat_amount_minor'])
    .select(['crypto_amount_minor', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

/** Live sessions (not revoked, not expired), the most recently used first. */
export function liveSessions(db: Db, userId: string, now: Date) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent', 'ip', 'factor_pending', 'device_pending'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

export function tickets(db: Db, userId: string) {
  return db
    .selectFrom('tickets')
    .select(['id', 'state', 'tx_ref', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

export function paymentMethods(db: Db, userId: string) {
  return db
    .selectFrom('payment_methods')
    .select(['id', 'kind', 'active', 'shown', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(PAGE_ROWS)
    .execute();
}

/** Second factors: the authenticator app (confirmed) and passkeys (suspended ones counted apart). */
export async function factors(db: Db, userId: string) {
  const [totp, passkeys] = await Promise.all([
    db.selectFrom('user_totp').select('confirmed_at').where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('user_passkeys').select(['suspended_at']).where('user_id', '=', userId).execute(),
  ]);
  return {
    totp: totp?.confirmed_at != null,
    passkeys: passkeys.filter((p) => p.suspended_at === null).length,
    passkeysSuspended: passkeys.filter((p) => p.suspended_at !== null).length,
  };
}

/** Compliance's own locks (migration 0098), with who placed them. */
export async function operatorLocks(db: Db, userId: string) {
  const lock = (table: 'operator_freezes' | 'operator_withdrawal_holds') =>
    db
      .selectFrom(`${table} as l`)
      .innerJoin('operators as o', 'o.id', 'l.operator_id')
      .select(['l.placed_at', 'l.reason', 'o.name'])
      .where('l.user_id', '=', userId)
      .executeTakeFirst();
  const [freeze, hold] = await Promise.all([lock('operator_freezes'), lock('operator_withdrawal_holds')]);
  const shape = (row: typeof freeze) =>
    row ? { since: row.placed_at.toISOString(), reason: row.reason, by: row.name } : null;
  return { freeze: shape(freeze), withdrawalHold: shape(hold) };
}
