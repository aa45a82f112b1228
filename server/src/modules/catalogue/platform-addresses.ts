import { coinNetworks, type NetworkCode } from './catalogue.ts';
import type { ChainsProvider } from './chains-file.ts';

/**
 * Addresses of the platform itself, refused as a withdrawal or exchange target with the usual
 * "address invalid" answer: coins sent there are burnt or loop back into our own books.
 *
 * - the hot wallets (they pay withdrawals; coins sent to them are credited to nobody);
 * - token contracts (a token sent to its own contract is lost);
 * - exchange order deposit addresses (a withdrawal into one would pay an order from the wallet).
 *
 * Burn addresses (EVM zero address and precompiles, TRON zero) are refused earlier, by
 * `@cw/shared-state/address`, on the screen and on the server alike.
 */
export interface PlatformAddresses {
  /** Whether `address` (canonical form) on `network` belongs to the platform. */
  has(network: NetworkCode, address: string): Promise<boolean>;
}

export interface PlatformAddressSources {
  /** The hot wallet address per network (modules/chain keys); unset: none known. */
  hotWallets?: () => Partial<Record<NetworkCode, string>>;
  /** The running EVM chains and their deployed token contracts. */
  chains?: ChainsProvider;
  /** Whether an exchange order was given this deposit address (modules/exchange repository). */
  isOrderDepositAddress?: (network: NetworkCode, address: string) => Promise<boolean>;
}

/** EVM addresses compare without their checksum case; other networks' forms are case-sensitive. */
const same = (network: NetworkCode, a: string, b: string) =>
  network === 'ethereum' || network === 'bsc' ? a.toLowerCase() === b.toLowerCase() : a === b;

function tokenContracts(network: NetworkCode, chains: ChainsProvider | undefined): string[] {
  // The catalogue's contract addresses (real ones, not the local chains' placeholders) and the running chains'.
  const listed = coinNetworks
    .filter((p) => p.network === network && p.tokenContract !== null && !p.tokenContract.startsWith('placeholder:'))
    .map((p) => p.tokenContract as string);
  const running = network === 'ethereum' || network === 'bsc' ? Object.values(chains?.()[network]?.tokens ?? {}) : [];
  return [...listed, ...running];
}

export function platformAddresses(sources: PlatformAddressSources): PlatformAddresses {
  return {
    async has(network, address) {
      const hot = sources.hotWallets?.()[network];
      if (hot !== undefined && same(network, hot, address)) return true;
      if (tokenContracts(network, sources.chains).some((c) => same(network, c, address))) return true;
      return (await sources.isOrderDepositAddress?.(network, address)) ?? false;
    },
  };
}
