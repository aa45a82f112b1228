import { useErrorMessage } from '@cw/shared-state/errors';
import { displayAmount } from '@cw/shared-state/money';
import { shortAddress, useWeb3, type Web3Kit, type Web3State } from '@cw/shared-state/web3';
import { Button } from 'antd-mobile';
import { type ReactNode, useEffect, useState } from 'react';
import { copyText } from '../clipboard/index.ts';
import { useUiTranslation } from '../i18n/index.ts';
import { LoadingState } from '../states/index.ts';
import { toast } from '../toast/index.ts';
import { WalletList } from './wallet-list.tsx';
import './wallet-connect.css';

export interface WalletConnectPanelProps {
  /** The chain the screen needs (check-in contract, deposit network); another one offers a switch. */
  chainId?: number | undefined;
  /** What the screen shows once a wallet is connected on the right chain. */
  children?: (ready: { kit: Web3Kit; state: Web3State; nativeBalance: bigint | null }) => ReactNode;
}

const NATIVE_DISPLAY = { decimals: 18, displayDecimals: 6, displayDecimalsAtOne: 4 };

function useNativeBalance(kit: Web3Kit | undefined, state: Web3State): bigint | null {
  const [balance, setBalance] = useState<bigint | null>(null);
  useEffect(() => {
    setBalance(null);
    if (!kit || state.status !== 'connected' || state.chainId === null) return;
    let live = true;
    kit.nativeBalance(state.chainId).then(
      (b) => live && setBalance(b),
      () => live && setBalance(null),
    );
    return () => {
      live = false;
    };
  }, [kit, state.status, state.chainId, state.address]);
  return balance;
}

/**
 * The connected wallet: short address (copy), its network and native balance, a one-tap switch when
 * it is on a network the screen cannot use, and disconnect. Without a connection: the wallet list.
 */
export function WalletConnectPanel({ chainId, children }: WalletConnectPanelProps) {
  const { t, i18n } = useUiTranslation();
  const errorMessage = useErrorMessage();
  const { kit, state, wallets, error } = useWeb3();
  const balance = useNativeBalance(kit, state);
  const [switching, setSwitching] = useState(false);
  if (error) return <p className="cw-wallet__muted">{errorMessage(error)}</p>;
  if (!kit || state.status === 'connecting') return <LoadingState />;
  if (state.status !== 'connected' || !state.address) return <WalletList kit={kit} wallets={wallets} />;
  const chain = kit.chains.find((c) => c.chainId === state.chainId);
  const wrongChain = chainId !== undefined && state.chainId !== chainId;
  const wanted = kit.chains.find((c) => c.chainId === chainId);
  const switchChain = async () => {
    if (chainId === undefined) return;
    setSwitching(true);
    try {
      await kit.switchChain(chainId);
    } catch (err) {
      toast.fail(errorMessage(err));
    } finally {
      setSwitching(false);
    }
  };
  return (
    <>
      <section className="cw-wallet__card" data-testid="wallet-connected">
        <div className="cw-wallet__row">
          <span className="cw-wallet__muted">{state.walletName ?? t('web3.browserWallet')}</span>
          <button type="button" className="cw-wallet__link" onClick={() => void kit.disconnect()}>
            {t('web3.disconnect')}
          </button>
        </div>
        <button
          type="button"
          className="cw-wallet__address"
          data-testid="wallet-address"
          aria-label={t('web3.copyAddress')}
          onClick={() => void copyText(state.address ?? '')}
        >
          {shortAddress(state.address)}
        </button>
        <div className="cw-wallet__row">
          <span data-testid="wallet-network">{chain?.name ?? t('web3.unknownNetwork', { id: state.chainId })}</span>
          <span data-testid="wallet-balance">
            {balance === null
              ? '…'
              : `${displayAmount(balance, NATIVE_DISPLAY, i18n.language)} ${chain?.nativeSymbol ?? ''}`}
          </span>
        </div>
        {wrongChain ? (
          <Button
            block
            color="warning"
            loading={switching}
            data-testid="wallet-switch"
            onClick={() => void switchChain()}
          >
            {t('web3.switchTo', { network: wanted?.name ?? chainId })}
          </Button>
        ) : null}
      </section>
      {!wrongChain && children ? children({ kit, state, nativeBalance: balance }) : null}
    </>
  );
}
