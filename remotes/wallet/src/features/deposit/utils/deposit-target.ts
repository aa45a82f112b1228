import type { CatalogueView } from '@cw/shared-state/catalogue';

/** What a deposit from the connected wallet pays, and to whom. */
export interface DepositTarget {
  coin: string;
  network: string;
  chainId: number;
  depositAddress: `0x${string}`;
  /** The token's contract; null for the network's native coin (never for a token: see depositTarget). */
  token: `0x${string}` | null;
  chainDecimals: number;
  minDepositMinor: bigint;
  view: CatalogueView;
}

/**
 * What a wallet deposit of `coin` on `network` pays: null where there is none (not an EVM network, no
 * address); 'no-contract' for a token whose contract the catalogue does not give. Only the network's
 * native coin is paid as native value: a token is never, whatever its contract field says.
 */
export function depositTarget(
  view: CatalogueView,
  coin: string,
  network: string,
  address: string,
): DepositTarget | 'no-contract' | null {
  const pair = view.pair(coin, network);
  const net = view.catalogue.networks.find((n) => n.code === network);
  const chainId = net?.chainId ?? null;
  if (!pair || !net || chainId === null || !/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
  const native = coin === net.nativeCoin;
  const token = native ? null : ((pair.tokenContract as `0x${string}` | null) ?? null);
  if (!native && (token === null || !/^0x[0-9a-fA-F]{40}$/.test(token))) return 'no-contract';
  return {
    coin,
    network,
    chainId,
    depositAddress: address as `0x${string}`,
    token,
    chainDecimals: pair.chainDecimals,
    minDepositMinor: BigInt(pair.minDepositMinor),
    view,
  };
}
