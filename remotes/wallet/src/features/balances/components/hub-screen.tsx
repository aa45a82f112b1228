import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { usePrices } from '@cw/shared-state/prices';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { QuickBuyButton } from '@cw/shared-ui/quick-buy';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, Tag } from 'antd-mobile';
import { type ReactNode, useEffect } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useBalances } from '../../../lib/balances.ts';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { totalValueText } from '../utils/total-value.ts';
import { BalanceList } from './balance-list.tsx';
import { HubEntries } from './hub-entries.tsx';
import * as styles from './hub-screen.module.css';

/** Who is asking: the hub is public, its balances are not (opened directly, the session is learnt first). */
function useSignedIn() {
  const status = useSession((s) => s.status);
  const refresh = useSession((s) => s.refresh);
  useEffect(() => {
    if (status === 'unknown') refresh().catch(() => undefined);
  }, [status, refresh]);
  return status;
}

/** /coinTopup: every coin's balance (with its fiat value) and the ways in and out. */
export default function HubScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const status = useSignedIn();
  const signedIn = status === 'authenticated';
  const balances = useBalances(signedIn);
  const catalogue = useCatalogue(signedIn);
  const view = catalogue.view;
  const prices = usePrices();
  const total = balances.data ? totalValueText(prices.data, balances.data) : null;
  const retry = () => {
    void balances.refetch();
    void catalogue.refetch();
  };

  let list: ReactNode;
  if (status === 'anonymous')
    list = (
      <div className={styles.login} data-testid="wallet-login-first">
        <span>{t('hub.loginFirst')}</span>
        <Button size="small" color="primary" onClick={() => void navigate('/login')}>
          {t('hub.login')}
        </Button>
      </div>
    );
  else if (balances.isPending || catalogue.isPending) list = <LoadingState />;
  else if (balances.isError || !view) list = <ErrorState onRetry={retry} />;
  else list = <BalanceList balances={balances.data} view={view} prices={prices.data} />;

  return (
    <WalletPage title={t('hub.title')} testId="wallet-hub">
      <HubEntries />
      {signedIn ? <QuickBuyButton testId="wallet-quick-buy" /> : null}
      <section className={styles.card}>
        <div className={styles.headingRow}>
          <h2 className={styles.heading}>{t('hub.balances')}</h2>
          {total !== null && (
            <span className={styles.total} data-testid="wallet-total">
              ≈ {total}
              {prices.data?.source === 'sandbox' && (
                <Tag color="warning" fill="outline" className={styles.sandbox} data-testid="sandbox-price">
                  {t('hub.sandbox')}
                </Tag>
              )}
            </span>
          )}
        </div>
        {list}
      </section>
      {signedIn ? (
        <Button
          block
          fill="none"
          color="primary"
          data-testid="wallet-verify"
          onClick={() => void navigate('/coinTopup/verify')}
        >
          {t('proof.link')}
        </Button>
      ) : null}
      {/* The build id is for operators and deploy checks, not a line on a user's screen (settings/about shows it). */}
      <span hidden data-testid="build-id">
        {__BUILD_ID__}
      </span>
    </WalletPage>
  );
}
