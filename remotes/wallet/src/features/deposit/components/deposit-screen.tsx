import { useTranslation } from '@cw/shared-state/i18n';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { CoinIcon, NetworkIcon } from '@cw/shared-ui/coin-icon';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { NoticeBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { useDepositAddress } from '../api/deposit-queries.ts';
import { type DepositChoice, useDepositChoice } from '../hooks/use-deposit-choice.ts';
import { DepositAddressView } from './deposit-address.tsx';

/** Coin and network chips; a network not taking deposits now is marked so. */
function ChoiceSection({ choice }: { choice: DepositChoice }) {
  const { t } = useTranslation(NAMESPACE);
  const { view, coin } = choice;
  if (!view) return null;
  return (
    <section className={`${ui.card} ${ui.field}`}>
      <span className={ui.label}>{t('common.coin')}</span>
      <ChipSelect
        testId="deposit-coin"
        columns={4}
        options={choice.coins.map((code) => ({ label: code, value: code, icon: <CoinIcon coin={code} /> }))}
        value={coin}
        onChange={(next) => choice.choose({ coin: next })}
      />
      <span className={ui.label}>{t('common.network')}</span>
      <ChipSelect
        testId="deposit-network"
        columns={2}
        options={choice.networks.map((p) => ({
          icon: <NetworkIcon network={p.network} />,
          label: p.depositEnabled
            ? view.networkLabel(p.network, coin)
            : `${view.networkLabel(p.network, coin)} · ${t('deposit.unavailable')}`,
          value: p.network,
        }))}
        value={choice.network}
        onChange={(next) => choice.choose({ network: next })}
      />
    </section>
  );
}

/**
 * Deposit: choose coin and network, then the address as text and QR, with the minimum and
 * confirmations. A network whose watcher is not running says why instead of showing an address (an
 * address nobody watches would take coins that are never credited).
 */
export default function DepositScreen() {
  const { t } = useTranslation(NAMESPACE);
  const choice = useDepositChoice();
  const { view, coin, network, live } = choice;
  const address = useDepositAddress(coin, network, live);

  let body: ReactNode = null;
  if (!view) body = choice.isError ? <ErrorState onRetry={() => void choice.refetch()} /> : <LoadingState />;
  else if (!live)
    body = (
      <section className={`${ui.card} ${ui.field}`} data-testid="deposit-unavailable" role="status">
        <span className={ui.label}>{t('deposit.unavailable')}</span>
        <p className={ui.muted}>{t('deposit.unavailableReason', { network: view.networkLabel(network, coin) })}</p>
      </section>
    );
  else if (address.isError) body = <ErrorState onRetry={() => void address.refetch()} />;
  else if (!address.data) body = <LoadingState />;
  else body = <DepositAddressView data={address.data} coin={coin} network={network} view={view} />;

  return (
    <WalletPage title={t('deposit.title')} testId="wallet-deposit" parent="/coinTopup">
      <NoticeBar content={t('deposit.warning')} color="alert" wrap />
      <ChoiceSection choice={choice} />
      {body}
    </WalletPage>
  );
}
