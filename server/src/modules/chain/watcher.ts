import type { Kysely, Transaction } from 'kysely';
import type { AbiEvent, Log } from 'viem';
import type { Database } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';

/**
 * The one interface every chain adapter implements (EVM over JSON-RPC, TRON over TronGrid,
 * Bitcoin/Dogecoin over Esplora). A watcher needs no keys: it reads the chain and writes deposits.
 */

/** A transfer to one of our deposit addresses seen in a block. */
export interface ObservedTransfer {
  network: NetworkCode;
  coin: CoinCode;
  txHash: string;
  /**
   * Position of the transfer within its transaction, stable when a reorg re-mines the transaction in
   * another block: a token Transfer log's index within the transaction's logs (EVM), the ordinal of a
   * TRC-20 transfer to the address within the transaction (TRON), the vout (UTXO); -1 for a native
   * EVM/TRON transfer. (Rows recorded before issue 39 hold an EVM log's index in its block.)
   */
  outputIndex: number;
  fromAddress: string | null;
  /** The deposit address, as stored in deposit_addresses. */
  toAddress: string;
  /** In the chain's unit (token or native decimals). */
  chainAmount: bigint;
  blockNumber: bigint;
  blockHash: string;
}

export interface TickReport {
  network: NetworkCode;
  /** Highest block whose deposits and hash are recorded, null before the first scan. */
  scannedTo: bigint | null;
  observed: number;
  credited: number;
  /** Set when a block-hash mismatch was found; deposits above the fork point were dropped. */
  reorgForkBlock?: bigint;
  /** True when the watcher is behind the chain tip and should tick again at once. */
  behind: boolean;
  /** Set when the node's tip is below the stored cursor (a lagging node): the tick waited. */
  nodeBehind?: true;
}

export interface ChainWatcher {
  readonly network: NetworkCode;
  tick(): Promise<TickReport>;
}

/**
 * Another reader of an EVM chain's contract events riding on a deposit watcher's blocks, cursor and
 * reorg handling (the rewards check-ins): it records the events of the blocks the watcher scans in
 * the watcher's own transaction, forgets its unconfirmed ones above a fork point, and confirms them
 * as the verified height grows.
 */
export interface EvmLogObserver {
  readonly address: `0x${string}`;
  readonly event: AbiEvent;
  record(trx: Transaction<Database>, logs: readonly Log[], at: Date): Promise<number>;
  /** Drops unconfirmed events above the fork block; returns how many confirmed ones were above it. */
  dropAbove(trx: Transaction<Database>, forkBlock: bigint, at: Date): Promise<number>;
  confirm(db: Kysely<Database>, verifiedHeight: bigint, at: Date): Promise<number>;
}

/**
 * The first statement of a watcher's write transaction when it runs as the elected leader of the
 * background roles (modules/leases): refuses (LeaseLostError) once another instance took over, so a
 * paused old leader never moves a cursor back or records a fork its successor already handled.
 */
export type WatcherFence = (trx: Transaction<Database>) => Promise<void>;
