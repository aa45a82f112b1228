import { useTranslation } from '@cw/shared-state/i18n';
import { useWeb3 } from '@cw/shared-state/web3';
import { Page } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { WalletConnectPanel } from '@cw/shared-ui/wallet-connect';
import { useCallback, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/rewards.module.css';
import { useSignStatus } from '../api/sign.ts';
import { CheckInCard } from './check-in-card.tsx';
import { Records } from './records.tsx';
import { RewardsCard } from './rewards-card.tsx';
import { StreakCard } from './streak-card.tsx';

/**
 * /sign: connect a wallet, check in on chain once a UTC day (the check-in contract's `checkIn` is the
 * only call the wallet is asked for), watch it confirm, keep the streak, claim and deliver rewards.
 */
export default function SignScreen() {
  const { t } = useTranslation(NAMESPACE);
  const [pendingTx, setPendingTx] = useState<string | null>(null);
  const status = useSignStatus(pendingTx);
  const { state } = useWeb3();
  const onSubmitted = useCallback((hash: string | null) => setPendingTx(hash), []);

  let body = null;
  if (status.isError) body = <ErrorState onRetry={() => void status.refetch()} />;
  else if (!status.data) body = <LoadingState />;
  else {
    const data = status.data;
    // The wallet's own chain when it has the contract, else the first chain that has one.
    const target = data.contracts.find((c) => c.chainId === state.chainId) ?? data.contracts[0];
    body = (
      <>
        <StreakCard status={data} />
        {target ? (
          <WalletConnectPanel chainId={target.chainId}>
            {({ kit }) => (
              <CheckInCard
                kit={kit}
                status={data}
                chainId={target.chainId}
                contract={target.address as `0x${string}`}
                pendingTx={pendingTx}
                onSubmitted={onSubmitted}
              />
            )}
          </WalletConnectPanel>
        ) : (
          <p className={`${ui.card} ${ui.muted}`}>{t('sign.noContract')}</p>
        )}
        <RewardsCard status={data} address={state.address} />
        <Records status={data} />
      </>
    );
  }
  return (
    <Page title={t('sign.title')}>
      <div data-testid="sign-screen">{body}</div>
    </Page>
  );
}
