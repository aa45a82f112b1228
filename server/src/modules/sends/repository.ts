import type { Kysely, Selectable } from 'kysely';
import type { Database, SendsTable } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';

type Db = Kysely<Database>;
export type SendRow = Selectable<SendsTable>;

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
  /** USD cents when placed (withdrawals/outflow-budget.ts). */
  valueUsdCents?: bigint;
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
      ...(s.valueUsdCents === undefined ? {} : { value_usd_cents: s.valueUsdCents.toString() }),
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['from_user_id', 'idempotency_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}
