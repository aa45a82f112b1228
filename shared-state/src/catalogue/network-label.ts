/** Each network's own name; not translated (brand names). */
export const NETWORK_NAMES: Readonly<Record<string, string>> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  bsc: 'BNB Smart Chain',
  tron: 'TRON',
  dogecoin: 'Dogecoin',
};

export function networkName(network: string): string {
  return NETWORK_NAMES[network] ?? network;
}

/** What the catalogue says of a network (GET /api/catalogue `networks[]`). */
export interface NetworkLabelInput {
  code: string;
  tokenStandard: string | null;
  nativeCoin: string;
}

/**
 * How a coin on a network is labelled: a token carries its standard ("Ethereum (ERC-20)" for USDT),
 * the network's own coin does not ("Ethereum" for ETH) — it is a plain transfer, not an ERC-20.
 * Without a coin (a network picker for any coin) the network's name alone.
 */
export function networkLabel(network: NetworkLabelInput | undefined, code: string, coin?: string): string {
  const name = networkName(network?.code ?? code);
  if (!network?.tokenStandard || coin === undefined || coin === network.nativeCoin) return name;
  return `${name} (${network.tokenStandard})`;
}
