import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import type { PlatformAddresses } from '../catalogue/platform-addresses.ts';
import { complianceStop } from './compliance-stop.ts';
import { holdingEvents } from './outflow-holds.ts';
import type { WithdrawalRow } from './repository.ts';

/**
 * The risk signals of a withdrawal in review, computed here and only here (the console shows them,
 * never works them out). Each is a fact, not a verdict; the reviewer weighs them:
 * - first withdrawal: the user has no earlier paid withdrawal;
 * - address new to the user: never paid before, and when (if ever) it was saved in the address book;
 * - address seen on other users' withdrawals (how many users, capped);
 * - a security change (password, e-mail, second factor, fund password) or a new-device sign-in in the
 *   last 72 hours (the newest), from the audit log and the known devices;
 * - the amount against the user's withdrawals and deposits of the same coin in the last 30 days;
 * - the account's age;
 * - the address is one of ours: a deposit address of any user, a hot wallet, a token contract or an
 *   exchange order's deposit address (catalogue/platform-addresses.ts).
 * Every query is bounded and indexed (a withdrawal's user, or (network, address), migration 0095).
 */
export const RECENT_SECURITY_WINDOW_MS = 72 * 3_600_000;
export const HISTORY_WINDOW_MS = 30 * 24 * 3_600_000;
/** Counts are capped: beyond this the number says "many", and the query stays cheap. */
export const COUNT_CAP = 100;

export interface RiskSignals {
  firstWithdrawal: boolean;
  /** The user's earlier paid withdrawals (at most COUNT_CAP). */
  paidWithdrawalsBefore: number;
  addressPaidBefore: boolean;
  /** When the user saved this address in the address book; null when not saved. */
  addressBookSavedAt: Date | null;
  /** Other users with a withdrawal to this address (at most COUNT_CAP). */
  addressOtherUsers: number;
  /** The newest security change in the last 72 h (an audit event), or null. */
  securityChange: { event: string; at: Date } | null;
  /** The newest browser first seen in the last 72 h, or null. */
  newDeviceAt: Date | null;
  /** Of the same coin in the last 30 days, minor units: withdrawn (not rejected or failed, this one excluded) and deposited. */
  withdrawn30dMinor: bigint;
  deposited30dMinor: bigint;
  accountCreatedAt: Date;
  /** 'deposit_address': a user's deposit address here; 'platform': a hot wallet, token contract or order address. */
  ownAddress: 'deposit_address' | 'platform' | null;
  /** Compliance's withdrawal hold or freeze standing on the user (approval is refused while it stands). */
  complianceStop: Awaited<ReturnType<typeof complianceStop>>;
}

type Db = Kysely<Database>;
type Row = Pick<WithdrawalRow, 'id' | 'user_id' | 'coin' | 'network' | 'address' | 'created_at'>;

const isEvm = (network: NetworkCode) => network === 'ethereum' || network === 'bsc';

async function addressFacts(db: Db, w: Row) {
  const { rows } = await sql<{ paid_before: string; other_users: string }>`
    select
      (select count(*) from (select 1 from withdrawals
         where user_id = ${w.user_id} and network = ${w.network} and address = ${w.address}
           and state = 'transfer_successful' and id <> ${w.id} limit 1) p)::text as paid_before,
      (select count(*) from (select distinct user_id from withdrawals
         where network = ${w.network} and address = ${w.address} and user_id <> ${w.user_id} limit ${COUNT_CAP}) o)::text
        as other_users`.execute(db);
  const saved = await db
    .selectFrom('address_book')
    .select('created_at')
    .where('user_id', '=', w.user_id)
    .where('network', '=', w.network)
    .where('address', '=', w.address)
    .executeTakeFirst();
  return {
    addressPaidBefore: Number(rows[0]?.paid_before ?? 0) > 0,
    addressOtherUsers: Number(rows[0]?.other_users ?? 0),
    addressBookSavedAt: saved?.created_at ?? null,
  };
}

async function ownAddress(db: Db, platform: PlatformAddresses | null, w: Row): Promise<RiskSignals['ownAddress']> {
  // EVM addresses are one address whatever their checksum case; others are case-sensitive.
  const match = isEvm(w.network)
    ? sql<boolean>`lower(address) = lower(${w.address})`
    : sql<boolean>`address = ${w.address}`;
  const deposit = await db
    .selectFrom('deposit_addresses')
    .select('id')
    .where('network', '=', w.network)
    .where(match)
    .limit(1)
    .executeTakeFirst();
  if (deposit) return 'deposit_address';
  return (await platform?.has(w.network, w.address)) ? 'platform' : null;
}

async function recentSecurity(db: Db, w: Row, at: Date) {
  const since = new Date(at.getTime() - RECENT_SECURITY_WINDOW_MS);
  const change = await db
    .selectFrom('audit_events')
    .select(['event', 'occurred_at'])
    .where('user_id', '=', w.user_id)
    .where('occurred_at', '>', since)
    .where('event', 'in', holdingEvents)
    .orderBy('occurred_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const device = await db
    .selectFrom('known_devices')
    .select('first_seen_at')
    .where('user_id', '=', w.user_id)
    .where('first_seen_at', '>', since)
    .orderBy('first_seen_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    securityChange: change ? { event: change.event, at: change.occurred_at } : null,
    newDeviceAt: device?.first_seen_at ?? null,
  };
}

async function history(db: Db, w: Row, at: Date) {
  const since = new Date(at.getTime() - HISTORY_WINDOW_MS);
  const { rows } = await sql<{ withdrawn: string | null; deposited: string | null; paid: string }>`
    select
      (select sum(amount_minor) from withdrawals
         where user_id = ${w.user_id} and coin = ${w.coin} and created_at > ${since} and id <> ${w.id}
           and state not in ('review_rejected', 'transfer_failed'))::text as withdrawn,
      (select sum(amount_minor) from deposits
         where user_id = ${w.user_id} and coin = ${w.coin} and created_at > ${since} and state = 'successful')::text
        as deposited,
      (select count(*) from (select 1 from withdrawals
         where user_id = ${w.user_id} and state = 'transfer_successful' and id <> ${w.id} limit ${COUNT_CAP}) p)::text
        as paid`.execute(db);
  const r = rows[0];
  return {
    withdrawn30dMinor: BigInt(r?.withdrawn ?? '0'),
    deposited30dMinor: BigInt(r?.deposited ?? '0'),
    paidWithdrawalsBefore: Number(r?.paid ?? 0),
  };
}

/** The signals of one withdrawal at `at` (see the file's comment). */
export async function riskSignals(db: Db, platform: PlatformAddresses | null, w: Row, at: Date): Promise<RiskSignals> {
  const [address, own, security, past, user, stop] = await Promise.all([
    addressFacts(db, w),
    ownAddress(db, platform, w),
    recentSecurity(db, w, at),
    history(db, w, at),
    db.selectFrom('users').select('created_at').where('id', '=', w.user_id).executeTakeFirstOrThrow(),
    complianceStop(db, w.user_id),
  ]);
  return {
    ...address,
    ...security,
    ...past,
    firstWithdrawal: past.paidWithdrawalsBefore === 0,
    accountCreatedAt: user.created_at,
    ownAddress: own,
    complianceStop: stop,
  };
}
