import { useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '../api/client.ts';
import type { WalletOption, Web3ChainInfo, Web3Kit, Web3Snapshot, Web3State } from './types.ts';

/**
 * The app's single web3 kit: loaded (with wagmi) on the first screen that needs a wallet, never on
 * the landing path, and shared by every remote because @cw/shared-state is one instance in the host's
 * share scope: a wallet connected on the rewards screens is connected on the deposit screen.
 */
let kit: Promise<Web3Kit> | null = null;

const NATIVE_NAMES: Record<string, string> = { ethereum: 'Ethereum', bsc: 'BNB Smart Chain' };

async function chainsFromCatalogue(): Promise<Web3ChainInfo[]> {
  const { data } = await api.GET('/api/catalogue');
  if (!data) throw new Error('catalogue unavailable');
  const tokensOf = (network: string) =>
    Object.fromEntries(
      data.pairs.flatMap((p) =>
        p.network === network && p.tokenContract !== null ? [[p.coin, p.tokenContract as `0x${string}`]] : [],
      ),
    );
  return data.networks.flatMap((n) =>
    n.chainId === null
      ? []
      : [
          {
            network: n.code,
            chainId: n.chainId,
            name: NATIVE_NAMES[n.code] ?? n.code,
            nativeSymbol: n.nativeCoin,
            checkInContract: (n.checkInContract as `0x${string}` | null) ?? null,
            tokens: tokensOf(n.code),
          },
        ],
  );
}

export function loadWeb3(): Promise<Web3Kit> {
  kit ??= Promise.all([import('./kit.ts'), chainsFromCatalogue()])
    .then(([{ createKit }, chains]) => createKit(chains))
    .catch((err: unknown) => {
      kit = null; // a later screen may try again
      throw err;
    });
  return kit;
}

const NOT_LOADED: Web3Snapshot = {
  state: { status: 'disconnected', address: null, chainId: null, walletName: null },
  wallets: [],
};
const noop = () => () => {};

/** The kit (undefined while it loads, or after it failed: `error`), the connection and the wallets on offer, live. */
export function useWeb3(): {
  kit: Web3Kit | undefined;
  state: Web3State;
  wallets: readonly WalletOption[];
  error: unknown;
} {
  const [loaded, setLoaded] = useState<Web3Kit>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let live = true;
    loadWeb3().then(
      (k) => live && setLoaded(k),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, []);
  const { state, wallets } = useSyncExternalStore(
    loaded ? loaded.subscribe : noop,
    () => loaded?.snapshot() ?? NOT_LOADED,
    () => NOT_LOADED,
  );
  return { kit: loaded, state, wallets, error };
}

/** "0x1234…abcd" */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
