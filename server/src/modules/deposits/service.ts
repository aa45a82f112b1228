import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DepositsTable } from '../../db/schema-deposits.ts';
import { NotFoundError, ServiceUnavailableError } from '../../errors/app-error.ts';
import { type CoinCode, type CoinNetwork, findCoinNetwork, type NetworkCode } from '../catalogue/catalogue.ts';
import type { ChainsProvider } from '../catalogue/chains-file.ts';
import { tokenWithoutContract } from '../catalogue/runtime.ts';
import { depositAddressFor } from './addresses.ts';
import { DepositConfirmLimitError, DepositDisabledError } from './errors.ts';
import type { ConfirmClickResult, Deposit, DepositAddress } from './schemas.ts';

/** "3 malicious confirm clicks per day" (product spec): unmatched clicks allowed per user per UTC day. */
export const UNMATCHED_CLICKS_PER_DAY = 3;
/** A click matches a deposit of the same coin and network seen within this window. */
const MATCH_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface DepositsService {
  address(userId: string, coin: CoinCode, network: NetworkCode): Promise<DepositAddress>;
  get(userId: string, id: string): Promise<Deposit>;
  /** The user's deposit paid by a transaction (a deposit sent from a connected wallet); 404 until seen. */
  byTransaction(userId: string, network: NetworkCode, txHash: string): Promise<Deposit>;
  confirmClick(userId: string, coin: CoinCode, network: NetworkCode): Promise<ConfirmClickResult>;
}

export interface DepositsServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Account xpubs per network (public keys only); a network without one has no deposit address. */
  xpubs: Partial<Record<NetworkCode, string>>;
  /** The running EVM chains (their token contracts), read per request; default none. */
  chains?: ChainsProvider;
}

function toDeposit(d: Selectable<DepositsTable>): Deposit {
  return {
    id: d.id,
    coin: d.coin,
    network: d.network,
    txHash: d.tx_hash,
    outputIndex: d.output_index,
    fromAddress: d.from_address,
    toAddress: d.to_address,
    amountMinor: d.amount_minor,
    blockNumber: d.block_number,
    confirmations: Math.min(d.confirmations, d.required_confirmations),
    requiredConfirmations: d.required_confirmations,
    state: d.state,
    reason: d.reason,
    createdAt: d.created_at.toISOString(),
    completedAt: d.completed_at ? d.completed_at.toISOString() : null,
  };
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

function secondsToNextUtcDay(at: Date): number {
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - at.getTime()) / 1000));
}

export function createDepositsService({ db, now, xpubs, chains = () => ({}) }: DepositsServiceDeps): DepositsService {
  /** The pair if it takes deposits now: offered, and an EVM token only with its configured contract. */
  const depositable = (coin: CoinCode, network: NetworkCode): CoinNetwork => {
    const pair = findCoinNetwork(coin, network);
    if (!pair?.depositEnabled || tokenWithoutContract(pair, chains())) throw new DepositDisabledError(coin, network);
    return pair;
  };
  return {
    async address(userId, coin, network) {
      const pair = depositable(coin, network);
      const xpub = xpubs[network];
      if (!xpub) throw new ServiceUnavailableError(`No deposit key configured for ${network}`);
      const address = await depositAddressFor(db, userId, network, xpub);
      return {
        coin,
        network,
        address,
        minDepositMinor: pair.minDepositMinor.toString(),
        confirmations: pair.confirmations,
        expectedArrivalMinutes: pair.expectedArrivalMinutes,
      };
    },

    async get(userId, id) {
      const row = await db
        .selectFrom('deposits')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw new NotFoundError('No such deposit');
      return toDeposit(row);
    },

    async byTransaction(userId, network, txHash) {
      const row = await db
        .selectFrom('deposits')
        .selectAll()
        .where('user_id', '=', userId)
        .where('network', '=', network)
        .where((eb) => eb(eb.fn('lower', ['tx_hash']), '=', txHash.toLowerCase()))
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (!row) throw new NotFoundError('No deposit of this transaction yet');
      return toDeposit(row);
    },

    async confirmClick(userId, coin, network) {
      depositable(coin, network);
      const at = now();
      const day = utcDay(at);
      return db.transaction().execute(async (trx) => {
        // Serialises one user's clicks so two concurrent ones cannot both take the last slot.
        await sql`select pg_advisory_xact_lock(hashtextextended(${`deposit-click:${userId}`}, 0))`.execute(trx);
        const { n } = await trx
          .selectFrom('deposit_confirm_clicks')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', userId)
          .where('utc_day', '=', sql<Date>`${day}::date`)
          .where('matched_deposit_id', 'is', null)
          .executeTakeFirstOrThrow();
        const unmatched = Number(n);
        if (unmatched >= UNMATCHED_CLICKS_PER_DAY) throw new DepositConfirmLimitError(secondsToNextUtcDay(at));
        const match = await trx
          .selectFrom('deposits')
          .select('id')
          .where('user_id', '=', userId)
          .where('coin', '=', coin)
          .where('network', '=', network)
          .where('created_at', '>=', new Date(at.getTime() - MATCH_WINDOW_MS))
          .where((eb) => eb.or([eb('state', '<>', 'failed'), eb('reason', '<>', 'reorged')]))
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirst();
        await trx
          .insertInto('deposit_confirm_clicks')
          .values({
            user_id: userId,
            coin,
            network,
            utc_day: day,
            matched_deposit_id: match?.id ?? null,
            created_at: at,
          })
          .execute();
        const left = UNMATCHED_CLICKS_PER_DAY - unmatched - (match ? 0 : 1);
        return { matched: match !== undefined, depositId: match?.id ?? null, unmatchedLeftToday: left };
      });
    },
  };
}
