import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SweepTransactionsTable } from '../../db/schema-custody.ts';
import { type CoinCode, type NetworkCode, nativeCoinOf } from '../catalogue/catalogue.ts';
import { ORDER_BRANCH } from '../exchange/deposit-address.ts';

/**
 * `sweep_transactions` (migration 0037): the signer's gas top-ups and sweeps, each recorded before its
 * broadcast. The signer (signer/sweeper.ts) writes them; the deposit watchers read them so that gas the
 * hot wallet sent to a deposit address is never credited to the user as a deposit.
 */
type Db = Kysely<Database>;
export type SweepRow = Selectable<SweepTransactionsTable>;

/** Which of these transaction hashes are our own top-ups or sweeps, first signings or replacements. */
export async function sweepTransactionHashes(db: Db, hashes: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return new Set();
  const rows = await db
    .selectFrom('sweep_transactions')
    .select('tx_hash')
    .where('tx_hash', 'in', unique)
    .unionAll(db.selectFrom('sweep_attempts').select('tx_hash').where('tx_hash', 'in', unique))
    .execute();
  return new Set(rows.map((r) => r.tx_hash));
}

export function insertSweep(trx: Db, row: Insertable<SweepTransactionsTable>): Promise<SweepRow> {
  return trx.insertInto('sweep_transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Recorded top-ups and sweeps of the network not mined yet, oldest first. */
export function openSweeps(db: Db, network: NetworkCode, limit: number): Promise<SweepRow[]> {
  return db
    .selectFrom('sweep_transactions')
    .selectAll()
    .where('state', '=', 'signed')
    .where('network', '=', network)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** An address with an open top-up or sweep: nothing new is planned for it until that one is mined. */
export async function addressesInFlight(db: Db, network: NetworkCode): Promise<Set<string>> {
  const rows = await db
    .selectFrom('sweep_transactions')
    .select('deposit_address')
    .where('state', '=', 'signed')
    .where('network', '=', network)
    .execute();
  return new Set(rows.map((r) => r.deposit_address));
}

/**
 * Notes a node's answer (null: taken) to a row's first signing (`sweep_transactions`) or to one of its
 * replacements (`sweep_attempts`); `broadcast_at` keeps the first time a node took the bytes.
 */
export async function noteSweepBroadcast(
  db: Db,
  table: 'sweep_transactions' | 'sweep_attempts',
  id: string,
  error: string | null,
  at: Date,
): Promise<void> {
  await sql`
    update ${sql.table(table)} set broadcast_count = broadcast_count + 1, last_error = ${error}::text,
      broadcast_at = case when ${error}::text is null then coalesce(broadcast_at, ${at}) else broadcast_at end,
      updated_at = ${at}
    where id = ${id}::bigint`.execute(db);
}

/** The attempt a receipt was found for: the row's first signing or one of its replacements. */
export interface MinedSweep {
  ok: boolean;
  blockNumber: bigint;
  feeWei: bigint;
  txHash: string;
  /** What that attempt sent, and at which price (a replacement's may differ from the first signing's). */
  chainAmount: bigint;
  gasPriceWei: bigint;
}

/** Marks a recorded row mined or reverted by one of its attempts, once: false when another tick settled it first. */
export async function markSweepMined(trx: Db, id: string, outcome: MinedSweep, at: Date): Promise<boolean> {
  const updated = await trx
    .updateTable('sweep_transactions')
    .set({
      state: outcome.ok ? 'mined' : 'reverted',
      block_number: outcome.blockNumber.toString(),
      fee_wei: outcome.feeWei.toString(),
      mined_tx_hash: outcome.txHash,
      chain_amount: outcome.chainAmount.toString(),
      gas_price_wei: outcome.gasPriceWei.toString(),
      updated_at: at,
    })
    .where('id', '=', id)
    .where('state', '=', 'signed')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

export async function setSweepCustodyTransfer(trx: Db, id: string, transferId: string): Promise<void> {
  await trx.updateTable('sweep_transactions').set({ custody_transfer_id: transferId }).where('id', '=', id).execute();
}

/** The highest nonce recorded for a sender on a chain by top-ups and sweeps, or -1 when none. */
export async function maxSweepNonce(trx: Db, chainId: number, fromAddress: string): Promise<bigint> {
  const { rows } = await sql<{ max: string | null }>`
    select max(nonce)::text as max from sweep_transactions
    where chain_id = ${chainId} and from_address = ${fromAddress}`.execute(trx);
  return rows[0]?.max == null ? -1n : BigInt(rows[0].max);
}

/** Key branch under a network's account path of users' deposit addresses (orders': ORDER_BRANCH). */
export const USER_BRANCH = 0;

/** The coins of an exchange order address are swept only once the order no longer waits on it. */
const sweepableOrder = sql`(o.state in ('completed', 'refunded', 'failed')
  or (o.state = 'expired' and (o.deposit_tx_hash is null or o.deposit_confirmed_at is not null)))`;

export interface SweepCandidate {
  address: string;
  derivationIndex: number;
  /** Which key branch the address is derived on (USER_BRANCH or ORDER_BRANCH). */
  branch: number;
  coin: CoinCode;
  /** Credited to users (or booked for an order) at this address and not swept yet (chain units). */
  unsweptChainAmount: bigint;
}

/**
 * Deposit addresses of the network (users', and exchange order addresses whose order no longer waits on
 * them: completed, refunded, failed, or expired with no late deposit being confirmed; their booked coins
 * are order_address_custody's rows) holding credited, unswept coins of at least `minimums[coin]` chain
 * units (coins without a minimum are not swept): credited deposits minus sweeps recorded (signed or mined),
 * and for the native coin minus the gas the address paid (mined or reverted: the receipt's fee; signed:
 * gas limit x price), so what a native sweep paid for its own gas is not a phantom amount listed again
 * and again at high gas prices. Gas top-ups are not the users' coins and are not swept back.
 * Only credited coins are swept, never a deposit still confirming, so the custody account of deposit
 * addresses can always give them. Ranked within each coin and interleaved across coins (raw chain units
 * of different coins do not compare: 1e15 wei would outrank any 6-decimal token amount).
 */
export async function sweepCandidates(
  db: Db,
  network: NetworkCode,
  minimums: ReadonlyMap<CoinCode, bigint>,
  limit: number,
): Promise<SweepCandidate[]> {
  if (minimums.size === 0) return [];
  const native = nativeCoinOf(network);
  const floors = sql.join([...minimums].map(([coin, min]) => sql`(${coin}::text, ${min.toString()}::numeric)`));
  const { rows } = await sql<{
    address: string;
    derivation_index: number;
    branch: number;
    coin: CoinCode;
    unswept: string;
  }>`
    with credited as (
      select address, coin, sum(amount) as amount from (
        select to_address as address, coin, chain_amount as amount
        from deposits where network = ${network} and state = 'successful' and custody_transfer_id is not null
        union all
        select c.address, c.coin, c.chain_amount as amount
        from order_address_custody c join exchange_orders o on o.id = c.order_id
        where c.network = ${network} and ${sweepableOrder}
      ) booked
      group by address, coin
    ), swept as (
      select deposit_address as address, coin, sum(chain_amount) as amount
      from sweep_transactions where network = ${network} and kind = 'sweep' and state in ('signed', 'mined')
      group by deposit_address, coin
    ), gas_paid as (
      select deposit_address as address, ${native}::text as coin,
        sum(case when state = 'signed' then gas_limit * gas_price_wei else fee_wei end) as amount
      from sweep_transactions where network = ${network} and kind = 'sweep'
      group by deposit_address
    ), unswept as (
      select c.address, c.coin, c.amount - coalesce(s.amount, 0) - coalesce(g.amount, 0) as amount
      from credited c
      left join swept s on s.address = c.address and s.coin = c.coin
      left join gas_paid g on g.address = c.address and g.coin = c.coin
    ), ranked as (
      select u.address, u.coin, u.amount, row_number() over (partition by u.coin order by u.amount desc, u.address) as rank
      from unswept u join (values ${floors}) f (coin, minimum) on f.coin = u.coin
      where u.amount >= f.minimum
    )
    select r.address, coalesce(a.derivation_index, o.deposit_index) as derivation_index,
      case when a.address is null then ${ORDER_BRANCH}::int else ${USER_BRANCH}::int end as branch,
      r.coin, r.amount::text as unswept
    from ranked r
    left join deposit_addresses a on a.network = ${network} and a.address = r.address
    left join exchange_orders o on a.address is null and o.send_network = ${network} and o.deposit_address = r.address
    where a.address is not null or o.deposit_index is not null
    order by r.rank, r.coin
    limit ${limit}`.execute(db);
  return rows.map((r) => ({
    address: r.address,
    derivationIndex: r.derivation_index,
    branch: r.branch,
    coin: r.coin,
    unsweptChainAmount: BigInt(r.unswept),
  }));
}

/**
 * The native coin the custody book holds for one deposit address (chain units): its credited native
 * deposits, plus gas top-ups mined to it, minus its native sweeps (signed or mined) and all the gas
 * it paid. Gas decisions use this, not the raw chain balance: a sweep's gas is booked against the
 * deposit addresses' custody account, which must never go below zero, and native coins the address
 * holds but no one credited (below the minimum, still confirming) are not in it.
 */
export async function bookedNativeOf(db: Db, network: NetworkCode, address: string): Promise<bigint> {
  const native = nativeCoinOf(network);
  const { rows } = await sql<{ amount: string }>`
    select (
      (select coalesce(sum(chain_amount), 0) from deposits where network = ${network} and to_address = ${address}
         and coin = ${native} and state = 'successful' and custody_transfer_id is not null)
      + (select coalesce(sum(chain_amount), 0) from order_address_custody where network = ${network}
         and address = ${address} and coin = ${native})
      + (select coalesce(sum(chain_amount), 0) from sweep_transactions where network = ${network}
         and deposit_address = ${address} and kind = 'gas_topup' and state = 'mined')
      - (select coalesce(sum(chain_amount), 0) from sweep_transactions where network = ${network}
         and deposit_address = ${address} and kind = 'sweep' and coin = ${native} and state in ('signed', 'mined'))
      - (select coalesce(sum(case when state = 'signed' then gas_limit * gas_price_wei else fee_wei end), 0)
         from sweep_transactions where network = ${network} and deposit_address = ${address} and kind = 'sweep')
    )::text as amount`.execute(db);
  return BigInt(rows[0]?.amount ?? '0');
}

/** The key of one of the network's deposit or order addresses (derivation index and branch) that signs its sweeps. */
export async function derivationIndexOf(
  db: Db,
  network: NetworkCode,
  address: string,
): Promise<{ index: number; branch: number } | undefined> {
  const user = await db
    .selectFrom('deposit_addresses')
    .select('derivation_index')
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  if (user) return { index: user.derivation_index, branch: USER_BRANCH };
  const order = await db
    .selectFrom('exchange_orders')
    .select('deposit_index')
    .where('send_network', '=', network)
    .where('deposit_address', '=', address)
    .where('deposit_index', 'is not', null)
    .executeTakeFirst();
  return order ? { index: order.deposit_index as number, branch: ORDER_BRANCH } : undefined;
}
