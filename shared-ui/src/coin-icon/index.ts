export { CoinIcon, NetworkIcon } from './coin-icon.tsx';
