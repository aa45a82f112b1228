import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, type NetworkCode, nativeCoinOf } from '../catalogue/catalogue.ts';
import { assert, type ChainAsset, type PostResult } from '../ledger/model.ts';
import { postTransferToAccounts, type RefLeg } from '../ledger/post-transfer.ts';

/**
 * The custody book (migration 0037): where the platform's coins sit on chain, kept in the ledger on
 * chain assets (`USDT@bsc`, chain units). Every posting here is one `custody` transfer, idempotent on its
 * key, in the caller's transaction, so it lands with the state change that caused it (a deposit
 * credited, a transaction settled) or not at all.
 *
 *   world (system_external) -> deposit addresses   a deposit credited
 *   hot wallet -> deposit addresses (+ gas -> world) a gas top-up mined
 *   deposit addresses -> hot wallet (+ gas -> world) a sweep mined
 *   hot wallet -> world (+ gas)                      a withdrawal mined (or reverted: gas only)
 *   world -> hot wallet                              the opening: the hot wallet read on chain at one block
 */

type Trx = Transaction<Database>;
type CustodyKind = 'system_external' | 'system_hot_wallet' | 'system_deposit_addresses';

export const chainAsset = (coin: CoinCode, network: NetworkCode): ChainAsset => `${coin}@${network}`;

/** One signed change of a custody account; changes of one account are added up before posting. */
export interface CustodyDelta {
  kind: CustodyKind;
  asset: ChainAsset;
  amountMinor: bigint;
}

/**
 * Posts the deltas as `custody` transfers, one per chain asset (a ledger transfer stays in one asset):
 * deltas of one account merged, zeros dropped, each keyed `<key>:<asset>`. Returns the transfers posted,
 * the first delta's asset first; none when nothing moves (a reverted transaction that cost no gas).
 */
export async function postCustody(
  trx: Trx,
  idempotencyKey: string,
  deltas: readonly CustodyDelta[],
  metadata: Record<string, unknown>,
  now: Date,
): Promise<PostResult[]> {
  const byAsset = new Map<ChainAsset, Map<CustodyKind, bigint>>();
  for (const d of deltas) {
    const accounts = byAsset.get(d.asset) ?? new Map<CustodyKind, bigint>();
    accounts.set(d.kind, (accounts.get(d.kind) ?? 0n) + d.amountMinor);
    byAsset.set(d.asset, accounts);
  }
  const posted: PostResult[] = [];
  for (const [asset, accounts] of byAsset) {
    let sum = 0n;
    for (const amount of accounts.values()) sum += amount;
    assert(sum === 0n, `custody deltas of ${asset} sum to zero`);
    const legs: RefLeg[] = [...accounts]
      .filter(([, amount]) => amount !== 0n)
      .map(([kind, amount]) => ({ account: { kind, userId: null, asset }, amountMinor: amount }));
    if (legs.length === 0) continue;
    const key = `${idempotencyKey}:${asset}`;
    posted.push(await postTransferToAccounts(trx, { idempotencyKey: key, kind: 'custody', legs, metadata }, now));
  }
  return posted;
}

/** `amount` of `asset` from one custody account to another. */
export const move = (from: CustodyKind, to: CustodyKind, asset: ChainAsset, amountMinor: bigint): CustodyDelta[] => [
  { kind: from, asset, amountMinor: -amountMinor },
  { kind: to, asset, amountMinor },
];

/** Gas paid in the network's native coin by `payer`, to the world. */
export const gas = (payer: CustodyKind, network: NetworkCode, feeWei: bigint): CustodyDelta[] =>
  move(payer, 'system_external', chainAsset(nativeCoinOf(network), network), feeWei);

/** A credited deposit's coins, now on its deposit address: world -> deposit addresses; marks the deposit booked. */
export async function bookDepositCustody(
  trx: Trx,
  d: { id: string; network: NetworkCode; coin: CoinCode; tx_hash: string; output_index: number; chain_amount: string },
  now: Date,
): Promise<void> {
  const asset = chainAsset(d.coin, d.network);
  const posted = await postCustody(
    trx,
    `custody:deposit:${d.network}:${d.tx_hash}:${d.output_index}`,
    move('system_external', 'system_deposit_addresses', asset, BigInt(d.chain_amount)),
    { depositId: d.id },
    now,
  );
  const transferId = posted[0]?.transfer.id;
  assert(transferId !== undefined, 'a credited deposit moves a positive amount');
  await trx.updateTable('deposits').set({ custody_transfer_id: transferId }).where('id', '=', d.id).execute();
}

/** Deposits credited before the custody book existed, not booked yet (a bounded page). */
export function unbookedDeposits(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('deposits')
    .select(['id', 'network', 'coin', 'tx_hash', 'output_index', 'chain_amount'])
    .where('state', '=', 'successful')
    .where('custody_transfer_id', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The block at which the network's hot wallet was read into the book, if it was. */
export async function openingBlock(db: Kysely<Database>, network: NetworkCode): Promise<bigint | undefined> {
  const row = await db
    .selectFrom('custody_openings')
    .select('block_number')
    .where('network', '=', network)
    .executeTakeFirst();
  return row ? BigInt(row.block_number) : undefined;
}

/**
 * Opens the network's hot wallet in the book with its balances read on chain at `block`: from then on
 * every movement mined after `block` is booked. False when it was opened already (nothing posted).
 */
export async function openHotWallet(
  trx: Trx,
  o: { network: NetworkCode; address: string; block: bigint; balances: ReadonlyMap<CoinCode, bigint> },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('custody_openings')
    .values({ network: o.network, address: o.address, block_number: o.block.toString(), created_at: now })
    .onConflict((oc) => oc.column('network').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
  for (const [coin, balance] of o.balances) {
    if (balance <= 0n) continue;
    await postCustody(
      trx,
      `custody:open:${o.network}:${coin}`,
      move('system_external', 'system_hot_wallet', chainAsset(coin, o.network), balance),
      { block: o.block.toString(), address: o.address },
      now,
    );
  }
  return true;
}

/**
 * A hot-wallet transaction mined at `minedBlock` that paid `chainAmount` of `coin` out (0 when it
 * reverted) and `feeWei` of gas. Not booked when it was mined at or before the opening block: the
 * opening balance already has it.
 */
export async function bookHotWalletOut(
  trx: Trx,
  o: { key: string; network: NetworkCode; coin: CoinCode; chainAmount: bigint; feeWei: bigint; minedBlock: bigint },
  metadata: Record<string, unknown>,
  now: Date,
): Promise<void> {
  const opened = await openingBlock(trx, o.network);
  if (opened === undefined || o.minedBlock <= opened) return;
  const deltas = [
    ...move('system_hot_wallet', 'system_external', chainAsset(o.coin, o.network), o.chainAmount),
    ...gas('system_hot_wallet', o.network, o.feeWei),
  ];
  await postCustody(trx, o.key, deltas, metadata, now);
}

/** Custody balances by kind and chain asset (for `ops reconcile`). */
export async function custodyBalances(db: Kysely<Database>, network: NetworkCode) {
  const { rows } = await sql<{ kind: CustodyKind; asset: ChainAsset; balance: string }>`
    select kind, asset, balance::text as balance from ledger_accounts
    where kind in ('system_hot_wallet', 'system_deposit_addresses') and asset like ${`%@${network}`}`.execute(db);
  return rows.map((r) => ({ kind: r.kind, asset: r.asset, balanceMinor: BigInt(r.balance) }));
}
