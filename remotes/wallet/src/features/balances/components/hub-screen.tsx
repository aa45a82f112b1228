import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { usePrices } from '@cw/shared-state/prices';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, Grid, Tag } from 'antd-mobile';
import {
  BankcardOutline,
  ContentOutline,
  LoopOutline,
  RightOutline,
  SendOutline,
  UnorderedListOutline,
} from 'antd-mobile-icons';
import { type ReactNode, useEffect } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useBalances } from '../../../lib/balances.ts';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { totalValueText } from '../utils/total-value.ts';
import { FiatValue } from './fiat-value.tsx';
import * as styles from './hub-screen.module.css';

function Entry({ icon, label, to, testId }: { icon: ReactNode; label: string; to: string; testId: string }) {
  const navigate = useNavigate();
  return (
    <button type="button" className={styles.entry} data-testid={testId} onClick={() => void navigate(to)}>
      <span className={styles.entryIcon} aria-hidden>
        {icon}
      </span>
      <span className={styles.entryLabel}>{label}</span>
    </button>
  );
}

/** /coinTopup: every coin's balance (with its fiat value) and the ways in and out. */
export default function HubScreen() {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const refresh = useSession((s) => s.refresh);
  useEffect(() => {
    // Opened directly: learn whether someone is signed in (the hub is public, its balances are not).
    if (status === 'unknown') refresh().catch(() => undefined);
  }, [status, refresh]);
  const signedIn = status === 'authenticated';
  const balances = useBalances(signedIn);
  const catalogue = useCatalogue(signedIn);
  const view = catalogue.view;
  const prices = usePrices();
  const total = balances.data ? totalValueText(prices.data, balances.data) : null;

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
  else if (balances.isError || !view)
    list = (
      <ErrorState
        onRetry={() => {
          void balances.refetch();
          void catalogue.refetch();
        }}
      />
    );
  else
    list = (
      <ul className={styles.balances} data-testid="wallet-balances">
        {balances.data.map((balance) => {
          return (
            <li key={balance.asset} className={styles.balance} data-testid={`balance-${balance.asset}`}>
              <button
                type="button"
                className={styles.balanceButton}
                onClick={() => void navigate(`/coinTopup/deposit?coin=${balance.asset}`)}
              >
                <span className={styles.coin}>
                  <CoinIcon coin={balance.asset} size={28} />
                  {balance.asset}
                </span>
                <span className={styles.amounts}>
                  <span className={styles.available} data-testid={`balance-${balance.asset}-available`}>
                    {format.display(balance.availableMinor, view.displayOf(balance.asset))}
                  </span>
                  <FiatValue prices={prices.data} coin={balance.asset} minor={balance.availableMinor} />
                  {balance.lockedMinor !== '0' && (
                    <span className={styles.locked}>
                      {t('hub.locked', { amount: format.display(balance.lockedMinor, view.displayOf(balance.asset)) })}
                    </span>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    );

  return (
    <WalletPage title={t('hub.title')} testId="wallet-hub">
      <Grid columns={4} gap={4} className={styles.entries}>
        <Entry icon={<BankcardOutline />} label={t('hub.deposit')} to="/coinTopup/deposit" testId="hub-deposit" />
        <Entry icon={<SendOutline />} label={t('hub.send')} to="/coinTopup/send" testId="hub-send" />
        <Entry icon={<UnorderedListOutline />} label={t('hub.history')} to="/coinTopup/history" testId="hub-history" />
        <Entry icon={<ContentOutline />} label={t('hub.addressBook')} to="/addressBook" testId="hub-address-book" />
      </Grid>
      <button type="button" className={styles.trade} data-testid="hub-trade" onClick={() => void navigate('/exchange')}>
        <span className={styles.entryIcon} aria-hidden>
          <LoopOutline />
        </span>
        <span className={styles.tradeText}>
          <span className={styles.tradeTitle}>{t('hub.trade')}</span>
          <span className={styles.tradeHint}>{t('hub.tradeHint')}</span>
        </span>
        <RightOutline aria-hidden className={styles.tradeArrow} />
      </button>
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
      <p className={styles.build} data-testid="build-id">
        {t('hub.build', { build: __BUILD_ID__ })}
      </p>
    </WalletPage>
  );
}
