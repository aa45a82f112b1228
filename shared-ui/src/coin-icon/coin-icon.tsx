import { type ComponentType, lazy, Suspense, type SVGProps } from 'react';
import './coin-icon.css';

type Icon = ComponentType<SVGProps<SVGSVGElement> & { size?: number | string; variant?: 'branded' | 'mono' }>;
type IconModule = Promise<{ default: Icon }>;

/**
 * Coin and network icons from @web3icons/react (MIT, see NOTICES.md), one module per icon, each
 * loaded when first shown: nothing of it is on the landing path.
 */
const COIN_ICONS: Record<string, () => IconModule> = {
  BTC: () => import('@web3icons/react/icons/tokens/TokenBTC'),
  ETH: () => import('@web3icons/react/icons/tokens/TokenETH'),
  USDT: () => import('@web3icons/react/icons/tokens/TokenUSDT'),
  USDC: () => import('@web3icons/react/icons/tokens/TokenUSDC'),
  TUSD: () => import('@web3icons/react/icons/tokens/TokenTUSD'),
  TRX: () => import('@web3icons/react/icons/tokens/TokenTRX'),
  BNB: () => import('@web3icons/react/icons/tokens/TokenBNB'),
  DOGE: () => import('@web3icons/react/icons/tokens/TokenDOGE'),
};

const NETWORK_ICONS: Record<string, () => IconModule> = {
  bitcoin: () => import('@web3icons/react/icons/networks/NetworkBitcoin'),
  ethereum: () => import('@web3icons/react/icons/networks/NetworkEthereum'),
  bsc: () => import('@web3icons/react/icons/networks/NetworkBinanceSmartChain'),
  tron: () => import('@web3icons/react/icons/networks/NetworkTron'),
  // Dogecoin's own chain: its coin's mark (the package's "Dogechain" is another, EVM, chain).
  dogecoin: () => import('@web3icons/react/icons/tokens/TokenDOGE'),
};

const lazyIcons = new Map<string, ComponentType<{ size: number }>>();

function lazyIcon(key: string, load: () => IconModule): ComponentType<{ size: number }> {
  let icon = lazyIcons.get(key);
  if (!icon) {
    const Loaded = lazy(load);
    icon = ({ size }) => <Loaded size={size} variant="branded" aria-hidden focusable="false" />;
    lazyIcons.set(key, icon);
  }
  return icon;
}

/** The first letter in a circle: while an icon loads, and for a code without one. */
function Initial({ code, size }: { code: string; size: number }) {
  return (
    <span className="cw-coin-icon__initial" style={{ width: size, height: size, fontSize: size * 0.5 }} aria-hidden>
      {code.slice(0, 1).toUpperCase()}
    </span>
  );
}

function MarkIcon({
  table,
  code,
  kind,
  size,
}: {
  table: Record<string, () => IconModule>;
  code: string;
  kind: string;
  size: number;
}) {
  const load = table[code];
  const initial = <Initial code={code} size={size} />;
  if (!load) return <span className="cw-coin-icon">{initial}</span>;
  const Icon = lazyIcon(`${kind}:${code}`, load);
  return (
    <span className="cw-coin-icon" data-icon={`${kind}-${code}`} style={{ width: size, height: size }}>
      <Suspense fallback={initial}>
        <Icon size={size} />
      </Suspense>
    </span>
  );
}

/** A coin's icon (decorative: the code is always written beside it). */
export function CoinIcon({ coin, size = 20 }: { coin: string; size?: number }) {
  return <MarkIcon table={COIN_ICONS} code={coin} kind="coin" size={size} />;
}

/** A network's icon (decorative: the network's name is always written beside it). */
export function NetworkIcon({ network, size = 20 }: { network: string; size?: number }) {
  return <MarkIcon table={NETWORK_ICONS} code={network} kind="network" size={size} />;
}
