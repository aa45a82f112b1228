import { networkCodes } from '../catalogue/catalogue.ts';
import { accountXpubFromSeed } from '../chain/derive.ts';
import type { UsdPrices } from './pricing.ts';

/** Test-only fixtures for exchange tests. */

/** Account xpubs of a fixed test seed, as the keygen child would write them. */
export const testXpubs = Object.fromEntries(
  networkCodes.map((n) => [n, accountXpubFromSeed(new Uint8Array(64).fill(7), n)]),
) as Record<(typeof networkCodes)[number], string>;

/** Exact USD prices (whole dollars) standing in for the price cache at the interface boundary. */
export function fixedPrices(usd: Partial<Record<string, bigint>>): UsdPrices & { set(coin: string, v: bigint): void } {
  const table = { ...usd };
  return {
    price(coin) {
      const value = table[coin];
      if (value === undefined) throw new Error(`no test price for ${coin}`);
      return { num: value, den: 1n };
    },
    set(coin, v) {
      table[coin] = v;
    },
  };
}

/** Anvil's first two well-known accounts: valid checksummed EVM addresses. */
export const EVM_ADDRESS_A = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const EVM_ADDRESS_B = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
