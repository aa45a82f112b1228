import { type Kysely, sql } from 'kysely';
import type { Address } from 'viem';
import type { Database } from '../../db/schema.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';

/** Addresses read from the database per query (keyset pages, ordered by address). */
export const ADDRESS_PAGE = 1_000;
/**
 * Deposit addresses read per network in one check (a bound on its work: one balance read per address
 * and coin). Past it the rest are counted and reported as not read, never silently dropped.
 */
export const ADDRESSES_MAX = 100_000;

export interface DepositAddressList {
  /** Ordered by address (a stable key), at most `max` of them. */
  addresses: Address[];
  /** Addresses past the bound, not read (0: the list is complete). */
  notRead: number;
}

/** The network's user deposit addresses and exchange order addresses (with custody rows) after `after`. */
function addressesAfter(network: EvmNetwork, after: string) {
  return sql`(select address from deposit_addresses where network = ${network} and address > ${after}
    union select address from order_address_custody where network = ${network} and address > ${after})`;
}

/**
 * The network's deposit addresses whose coins the custody account of deposit addresses holds: users'
 * and exchange orders' (issue 37), read in pages ordered by address, all of them up to `max`; the
 * number left past the bound is returned so that callers print it loudly.
 */
export async function depositAddressesOf(
  db: Kysely<Database>,
  network: EvmNetwork,
  bounds: { pageSize?: number; max?: number } = {},
): Promise<DepositAddressList> {
  const pageSize = bounds.pageSize ?? ADDRESS_PAGE;
  const max = bounds.max ?? ADDRESSES_MAX;
  const addresses: Address[] = [];
  let last = '';
  while (addresses.length < max) {
    const limit = Math.min(pageSize, max - addresses.length);
    const { rows } = await sql<{ address: string }>`
      select address from ${addressesAfter(network, last)} a order by address limit ${limit}`.execute(db);
    for (const r of rows) addresses.push(r.address as Address);
    if (rows.length < limit) return { addresses, notRead: 0 };
    last = rows[rows.length - 1]?.address ?? last;
  }
  const { rows } = await sql<{ n: string }>`
    select count(*)::text as n from ${addressesAfter(network, last)} a`.execute(db);
  return { addresses, notRead: Number(rows[0]?.n ?? 0) };
}
