import type { Hex } from 'viem';

/** An EVM chain the app runs on (from the catalogue: networks with a chain id). */
export interface Web3ChainInfo {
  network: string;
  chainId: number;
  name: string;
  nativeSymbol: string;
  checkInContract: Hex | null;
  /** Coin -> its token contract on this chain, for the tokens whose contract the server has configured. */
  tokens: Readonly<Record<string, Hex>>;
}

export interface Web3State {
  status: 'disconnected' | 'connecting' | 'connected';
  address: Hex | null;
  chainId: number | null;
  walletName: string | null;
}

/** A wallet the browser offers: announced by EIP-6963, or the generic injected provider. */
export interface WalletOption {
  id: string;
  name: string;
  /** Data URI from the wallet's EIP-6963 announcement; null: draw a monogram. */
  icon: string | null;
  rdns: string | null;
}

/** The connection and the wallets on offer, as one value that changes identity when either changes. */
export interface Web3Snapshot {
  state: Web3State;
  wallets: readonly WalletOption[];
}

export interface Web3Kit {
  readonly chains: readonly Web3ChainInfo[];
  snapshot(): Web3Snapshot;
  subscribe(listener: () => void): () => void;
  connect(walletId: string): Promise<void>;
  disconnect(): Promise<void>;
  switchChain(chainId: number): Promise<void>;
  nativeBalance(chainId: number): Promise<bigint>;
  tokenBalance(chainId: number, token: Hex): Promise<bigint>;
  /** Checks gas and simulates first; resolves with the transaction hash once the wallet sent it. */
  checkIn(input: { chainId: number; contract: Hex; memberTag: Hex }): Promise<Hex>;
  /**
   * The coin to the user's own deposit address: native value when `coin` is the chain's native coin, a
   * transfer on the catalogue's contract of `coin` otherwise; refused when the catalogue knows neither.
   */
  deposit(input: { chainId: number; coin: string; depositAddress: Hex; amount: bigint }): Promise<Hex>;
  waitForReceipt(chainId: number, hash: Hex): Promise<'success' | 'reverted'>;
}
