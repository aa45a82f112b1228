import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, SendsTable } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';

type Db = Kysely<Database>;
export type SendRow = Selectable<SendsTable>;

export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db.selectFrom('accounts').select('user_id').where('email', '=', email).executeTakeFirst();
  return row?.user_id;
}

/** EVM addresses compare without case (checksums are a spelling, not a different address). */
export async function findUserIdByDepositAddress(
  db: Db,
  network: NetworkCode,
  address: string,
): Promise<string | undefined> {
  const evm = network === 'ethereum' || network === 'bsc';
  const row = await db
    .selectFrom('deposit_addresses')
    .select('user_id')
    .where('network', '=', network)
    .where((eb) => (evm ? eb(sql`lower(address)`, '=', address.toLowerCase()) : eb('address', '=', address)))
    .executeTakeFirst();
  return row?.user_id;
}

export async function findSendByKey(db: Db, fromUserId: string, idempotencyKey: string) {
  return db
    .selectFrom('sends')
    .selectAll()
    .where('from_user_id', '=', fromUserId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

export async function findSend(db: Db, id: string) {
  return db.selectFrom('sends').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewSend {
  fromUserId: string;
  toUserId: string;
  idempotencyKey: string;
  coin: CoinCode;
  amountMinor: bigint;
  recipientKind: 'email' | 'address';
  recipient: string;
  network: NetworkCode | null;
  ledgerTransferId: string;
}

export async function insertSend(db: Db, s: NewSend, now: Date): Promise<SendRow | undefined> {
  return db
    .insertInto('sends')
    .values({
      from_user_id: s.fromUserId,
      to_user_id: s.toUserId,
      idempotency_key: s.idempotencyKey,
      coin: s.coin,
      amount_minor: s.amountMinor.toString(),
      recipient_kind: s.recipientKind,
      recipient: s.recipient,
      network: s.network,
      ledger_transfer_id: s.ledgerTransferId,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['from_user_id', 'idempotency_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}
