import { type Kysely, sql } from 'kysely';
import type { Address, PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type NetworkCode, nativeCoinOf } from '../catalogue/catalogue.ts';
import { depositAddressesPage } from '../deposits/addresses.ts';
import { raiseChainAlert } from '../deposits/chain-alerts.ts';
import type { WatcherFence } from './watcher.ts';

/**
 * Issue 39 item 5's fallback: where the node cannot trace internal calls (tracing off, or no debug
 * API), native coin a contract sent to a deposit address (a Safe, a multisend, a batch payout) is not
 * seen as a deposit. It is still on the address: each tick a bounded batch of deposit addresses (in
 * rotation) has its on-chain native balance, at the scanned block, compared with what the books explain
 * (bookedNativeOf); more on chain than that raises an `unexplained_balance` chain alert for an operator
 * (one open per address). Less is normal (a sweep mined but not settled yet).
 */

/** Addresses compared per tick (one eth_getBalance each). */
const ADDRESSES_PER_TICK = 50;

/**
 * Native coin the books say the addresses held at `atBlock`, in wei (read-only over deposits and the
 * signer's sweep_transactions): recorded native deposits mined by then (credited, confirming, or kept
 * for review / below the minimum, which still arrived; not reorged ones), plus gas top-ups mined by
 * then or still open (an open one may be mined already: counted, so it never looks unexplained), minus
 * native sweeps mined by then and the gas every mined or reverted sweep paid from the address.
 */
export async function bookedNativeOf(
  db: Kysely<Database>,
  network: NetworkCode,
  addresses: readonly string[],
  atBlock: bigint,
): Promise<Map<string, bigint>> {
  if (addresses.length === 0) return new Map();
  const native = nativeCoinOf(network);
  const block = atBlock.toString();
  const { rows } = await sql<{ address: string; booked: string }>`
    select a.address, (
      coalesce((select sum(d.chain_amount) from deposits d
        where d.network = ${network} and d.to_address = a.address and d.coin = ${native}
          and d.block_number <= ${block}::bigint and (d.state <> 'failed' or d.reason <> 'reorged')), 0)
      + coalesce((select sum(s.chain_amount) from sweep_transactions s
        where s.network = ${network} and s.deposit_address = a.address and s.kind = 'gas_topup'
          and (s.state = 'signed' or (s.state = 'mined' and s.block_number <= ${block}::bigint))), 0)
      - coalesce((select sum(case when s.state = 'mined' and s.coin = ${native} then s.chain_amount else 0 end
          + coalesce(s.fee_wei, 0)) from sweep_transactions s
        where s.network = ${network} and s.deposit_address = a.address and s.kind = 'sweep'
          and s.state in ('mined', 'reverted') and s.block_number <= ${block}::bigint), 0)
    )::text as booked
    from unnest(${[...addresses]}::text[]) as a(address)`.execute(db);
  return new Map(rows.map((r) => [r.address, BigInt(r.booked)]));
}

export interface BalanceCheckOptions {
  db: Kysely<Database>;
  client: PublicClient;
  network: NetworkCode;
  now: () => Date;
  fence?: WatcherFence;
}

/** A check over the network's deposit addresses, a batch per call, rotating (the rotation is only a hint). */
export function createUnexplainedBalanceCheck(options: BalanceCheckOptions) {
  const { db, client, network } = options;
  let afterId = '0';
  return async function check(atBlock: bigint): Promise<number> {
    const batch = await depositAddressesPage(db, network, afterId, ADDRESSES_PER_TICK);
    afterId = batch.length === ADDRESSES_PER_TICK ? (batch.at(-1)?.id ?? '0') : '0';
    const addresses = batch.map((b) => b.address);
    const [booked, balances] = await Promise.all([
      bookedNativeOf(db, network, addresses, atBlock),
      Promise.all(addresses.map((a) => client.getBalance({ address: a as Address, blockNumber: atBlock }))),
    ]);
    const unexplained = addresses.flatMap((address, i) => {
      const onChain = balances[i] ?? 0n;
      const known = booked.get(address) ?? 0n;
      return onChain > known ? [{ address, onChain, known }] : [];
    });
    if (unexplained.length === 0) return 0;
    let raised = 0;
    await db.transaction().execute(async (trx) => {
      await options.fence?.(trx);
      for (const u of unexplained) {
        const detail = `${u.address} holds ${u.onChain} wei at block ${atBlock}; recorded deposits, top-ups and sweeps explain ${u.known} (${u.onChain - u.known} unexplained: native coin sent by a contract the node could not trace?)`;
        if (
          await raiseChainAlert(
            trx,
            { network, kind: 'unexplained_balance', dedupeKey: `address:${u.address}`, detail },
            options.now(),
          )
        )
          raised++;
      }
    });
    return raised;
  };
}
