/**
 * The coin catalogue as data: which coins exist, on which networks, with which limits.
 *
 * Units: every amount here is an integer of the coin's LEDGER minor unit (`Coin.decimals`),
 * the unit the ledger stores balances in. A token contract may use more decimals on chain
 * (USDT on BSC has 18, the ledger keeps 6): the chain watcher and signer convert with
 * `chainDecimals - coin.decimals`, which is never negative so no ledger amount is lost on chain.
 *
 * Spec constants (product-spec "Minimum deposit above 1 USDT (about 2 min, 1 confirmation) or
 * above 0.001 USDT (about 4 min, 6 or 64 confirmations depending on network)"): tron is the
 * 1-confirmation tier; ethereum (6) and bsc (64) the 0.001 tier. Bitcoin and dogecoin figures are
 * not in the spec; they are ordinary exchange values, chosen here.
 *
 * Adding a pair is a data change here (no migration): the ledger keys accounts by coin code only.
 */

export const coinCodes = ['BTC', 'ETH', 'USDT', 'USDC', 'TUSD', 'TRX', 'BNB', 'DOGE'] as const;
export type CoinCode = (typeof coinCodes)[number];

export const networkCodes = ['bitcoin', 'ethereum', 'bsc', 'tron', 'dogecoin'] as const;
export type NetworkCode = (typeof networkCodes)[number];

export interface Coin {
  code: CoinCode;
  /** Decimals of the ledger's minor unit: 1 BTC = 10^8 minor units. */
  decimals: number;
  /**
   * Fraction digits shown for an amount below one whole coin, and for one of at least one coin (the
   * screens round down to these; full precision on a detail screen and in copy). Stablecoins show
   * cents for whole amounts and up to 6 digits for small ones.
   */
  displayDecimals: number;
  displayDecimalsAtOne: number;
}

export interface Network {
  code: NetworkCode;
  /** Token standard shown to the user next to the network, e.g. "ERC-20"; null for a UTXO chain. */
  tokenStandard: string | null;
  /** The network's own coin, which pays its fees. */
  nativeCoin: CoinCode;
}

export interface CoinNetwork {
  coin: CoinCode;
  network: NetworkCode;
  /** Decimals of the on-chain unit (token contract or native coin); >= the coin's ledger decimals. */
  chainDecimals: number;
  /** Token contract address; null for the network's native coin. Placeholders until local chains exist. */
  tokenContract: string | null;
  /** Smallest deposit credited, ledger minor units; smaller deposits are not credited. */
  minDepositMinor: bigint;
  /** Blocks on top of the deposit's block before it is credited. */
  confirmations: number;
  /** What the deposit screen shows as the expected arrival time. */
  expectedArrivalMinutes: number;
  withdrawMinMinor: bigint;
  withdrawMaxMinor: bigint;
  /** Flat network fee taken from each withdrawal, ledger minor units (goes to system_fees). */
  withdrawFeeMinor: bigint;
  depositEnabled: boolean;
  withdrawEnabled: boolean;
}

export const coins: readonly Coin[] = [
  { code: 'BTC', decimals: 8, displayDecimals: 8, displayDecimalsAtOne: 8 },
  { code: 'ETH', decimals: 18, displayDecimals: 8, displayDecimalsAtOne: 8 },
  { code: 'USDT', decimals: 6, displayDecimals: 6, displayDecimalsAtOne: 2 },
  { code: 'USDC', decimals: 6, displayDecimals: 6, displayDecimalsAtOne: 2 },
  { code: 'TUSD', decimals: 18, displayDecimals: 6, displayDecimalsAtOne: 2 },
  { code: 'TRX', decimals: 6, displayDecimals: 6, displayDecimalsAtOne: 4 },
  { code: 'BNB', decimals: 18, displayDecimals: 8, displayDecimalsAtOne: 8 },
  { code: 'DOGE', decimals: 8, displayDecimals: 8, displayDecimalsAtOne: 4 },
];

export const networks: readonly Network[] = [
  { code: 'bitcoin', tokenStandard: null, nativeCoin: 'BTC' },
  { code: 'ethereum', tokenStandard: 'ERC-20', nativeCoin: 'ETH' },
  { code: 'bsc', tokenStandard: 'BEP-20', nativeCoin: 'BNB' },
  { code: 'tron', tokenStandard: 'TRC-20', nativeCoin: 'TRX' },
  { code: 'dogecoin', tokenStandard: null, nativeCoin: 'DOGE' },
];

/** `units(1.5, 6)` would be a float; amounts are written as whole-unit and fraction strings instead. */
export function minor(decimalText: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimalText);
  if (!match) throw new Error(`minor(): not a decimal amount: ${decimalText}`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new Error(`minor(): ${decimalText} has more than ${decimals} decimals`);
  return BigInt(`${match[1]}${fraction.padEnd(decimals, '0')}`);
}

/** Placeholder contract addresses for the local development chains (replaced per deployment). */
const placeholder = (network: NetworkCode, coin: CoinCode) => `placeholder:${network}:${coin}`;

/** The tiers of the spec: the 1-USDT tier (tron) and the 0.001-USDT tier (ethereum, bsc). */
const stableOn = {
  ethereum: { minDeposit: '0.001', confirmations: 6, expectedArrivalMinutes: 4, fee: '5', min: '10' },
  bsc: { minDeposit: '0.001', confirmations: 64, expectedArrivalMinutes: 4, fee: '0.5', min: '2' },
  tron: { minDeposit: '1', confirmations: 1, expectedArrivalMinutes: 2, fee: '1', min: '2' },
} as const;

type StableNetwork = keyof typeof stableOn;

function stablecoin(coin: CoinCode, network: StableNetwork, chainDecimals: number): CoinNetwork {
  const tier = stableOn[network];
  const decimals = coinDecimals(coin);
  return {
    coin,
    network,
    chainDecimals,
    tokenContract: placeholder(network, coin),
    minDepositMinor: minor(tier.minDeposit, decimals),
    confirmations: tier.confirmations,
    expectedArrivalMinutes: tier.expectedArrivalMinutes,
    withdrawMinMinor: minor(tier.min, decimals),
    withdrawMaxMinor: minor('1000000', decimals),
    withdrawFeeMinor: minor(tier.fee, decimals),
    depositEnabled: true,
    withdrawEnabled: true,
  };
}

interface NativeLimits {
  minDeposit: string;
  confirmations: number;
  expectedArrivalMinutes: number;
  withdrawMin: string;
  withdrawMax: string;
  fee: string;
}

function native(coin: CoinCode, network: NetworkCode, limits: NativeLimits): CoinNetwork {
  const decimals = coinDecimals(coin);
  return {
    coin,
    network,
    chainDecimals: decimals,
    tokenContract: null,
    minDepositMinor: minor(limits.minDeposit, decimals),
    confirmations: limits.confirmations,
    expectedArrivalMinutes: limits.expectedArrivalMinutes,
    withdrawMinMinor: minor(limits.withdrawMin, decimals),
    withdrawMaxMinor: minor(limits.withdrawMax, decimals),
    withdrawFeeMinor: minor(limits.fee, decimals),
    depositEnabled: true,
    withdrawEnabled: true,
  };
}

export function coinDecimals(code: CoinCode): number {
  const coin = coins.find((c) => c.code === code);
  if (!coin) throw new Error(`unknown coin ${code}`);
  return coin.decimals;
}

export const coinNetworks: readonly CoinNetwork[] = [
  native('BTC', 'bitcoin', {
    minDeposit: '0.0001',
    confirmations: 2,
    expectedArrivalMinutes: 30,
    withdrawMin: '0.001',
    withdrawMax: '100',
    fee: '0.0002',
  }),
  native('ETH', 'ethereum', {
    minDeposit: '0.001',
    confirmations: 6,
    expectedArrivalMinutes: 4,
    withdrawMin: '0.01',
    withdrawMax: '1000',
    fee: '0.002',
  }),
  native('BNB', 'bsc', {
    minDeposit: '0.001',
    confirmations: 64,
    expectedArrivalMinutes: 4,
    withdrawMin: '0.01',
    withdrawMax: '10000',
    fee: '0.0005',
  }),
  native('TRX', 'tron', {
    minDeposit: '1',
    confirmations: 1,
    expectedArrivalMinutes: 2,
    withdrawMin: '10',
    withdrawMax: '10000000',
    fee: '1',
  }),
  native('DOGE', 'dogecoin', {
    minDeposit: '1',
    confirmations: 6,
    expectedArrivalMinutes: 6,
    withdrawMin: '20',
    withdrawMax: '10000000',
    fee: '5',
  }),
  stablecoin('USDT', 'ethereum', 6),
  stablecoin('USDT', 'bsc', 18),
  stablecoin('USDT', 'tron', 6),
  stablecoin('USDC', 'ethereum', 6),
  stablecoin('USDC', 'bsc', 18),
  stablecoin('TUSD', 'ethereum', 18),
  stablecoin('TUSD', 'bsc', 18),
  stablecoin('TUSD', 'tron', 18),
];

/** The coin a network pays its fees in (ETH on ethereum, BNB on bsc...). */
export function nativeCoinOf(network: NetworkCode): CoinCode {
  const found = networks.find((n) => n.code === network);
  if (found === undefined) throw new Error(`network ${network} is not in the catalogue`);
  return found.nativeCoin;
}

export function isCoinCode(value: string): value is CoinCode {
  return (coinCodes as readonly string[]).includes(value);
}

export function findCoinNetwork(coin: CoinCode, network: NetworkCode): CoinNetwork | undefined {
  return coinNetworks.find((p) => p.coin === coin && p.network === network);
}

/** 10^(chain decimals - ledger decimals) of the coin on the network: how many chain units make one minor unit. */
function chainUnitsPerMinor(coin: CoinCode, network: NetworkCode): bigint {
  const pair = findCoinNetwork(coin, network);
  if (!pair) throw new Error(`no catalogue pair ${coin}/${network}`);
  const shift = pair.chainDecimals - coinDecimals(coin);
  if (shift < 0) throw new Error(`${coin}/${network}: chain decimals below ledger decimals`);
  return 10n ** BigInt(shift);
}

/** Chain units -> ledger minor units (floor). A deposit keeps the exact chain amount beside it. */
export function toLedgerMinor(coin: CoinCode, network: NetworkCode, chainAmount: bigint): bigint {
  return chainAmount / chainUnitsPerMinor(coin, network);
}

/** Ledger minor units -> the chain's unit of the coin on the network (exact: chain decimals >= ledger decimals). */
export function toChainUnits(coin: CoinCode, network: NetworkCode, amountMinor: bigint): bigint {
  return amountMinor * chainUnitsPerMinor(coin, network);
}

export function networksOf(coin: CoinCode): CoinNetwork[] {
  return coinNetworks.filter((p) => p.coin === coin);
}
