export { WalletConnectPanel, type WalletConnectPanelProps } from './wallet-connect-panel.tsx';
