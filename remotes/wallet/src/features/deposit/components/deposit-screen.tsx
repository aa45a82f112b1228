import { useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { copyText } from '@cw/shared-ui/clipboard';
import { CoinIcon, NetworkIcon } from '@cw/shared-ui/coin-icon';
import { QrCode } from '@cw/shared-ui/qr-code';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, NoticeBar } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { useConfirmTransferredMutation, useDepositAddress } from '../api/deposit-queries.ts';

/** Deposit: choose coin and network, then the address as text and QR, with the minimum and confirmations. */
export default function DepositScreen() {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { view, isError, refetch } = useCatalogue();
  const confirm = useConfirmTransferredMutation();

  // Every coin and network of the catalogue is listed; one not taking deposits now says why instead of
  // showing an address (an address nobody watches would take coins that are never credited).
  const coins: string[] = view ? [...new Set(view.catalogue.pairs.map((p) => p.coin))] : [];
  // USDT first when nothing is asked for: the coin most deposits are in.
  const wanted = params.get('coin') ?? 'USDT';
  const coin = coins.includes(wanted) ? wanted : (coins[0] ?? '');
  const networks = view?.catalogue.pairs.filter((p) => p.coin === coin) ?? [];
  const firstLive = networks.find((p) => p.depositEnabled) ?? networks[0];
  const network = networks.find((p) => p.network === params.get('network'))?.network ?? firstLive?.network ?? '';
  const live = networks.find((p) => p.network === network)?.depositEnabled ?? false;
  const [noted, setNoted] = useState<number | null>(null);
  const choose = (next: { coin?: string; network?: string }) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next.coin) {
          updated.set('coin', next.coin);
          updated.delete('network');
        }
        if (next.network) updated.set('network', next.network);
        return updated;
      },
      { replace: true },
    );

  const address = useDepositAddress(coin, network, live);
  const onTransferred = () =>
    confirm.mutate(
      { coin, network },
      {
        onSuccess: (result) => {
          if (result.matched && result.depositId) void navigate(`/coinTopup/topup?id=${result.depositId}`);
          // Said below the button, not in a toast over the QR code the user may still need.
          else setNoted(result.unmatchedLeftToday);
        },
        onError: (error) => toast.fail(errorMessage(error)),
      },
    );

  let body = null;
  if (!view) body = isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />;
  else if (!live)
    body = (
      <section className={`${ui.card} ${ui.field}`} data-testid="deposit-unavailable" role="status">
        <span className={ui.label}>{t('deposit.unavailable')}</span>
        <p className={ui.muted}>{t('deposit.unavailableReason', { network: view.networkLabel(network, coin) })}</p>
      </section>
    );
  else if (address.isError) body = <ErrorState onRetry={() => void address.refetch()} />;
  else if (!address.data) body = <LoadingState />;
  else {
    const data = address.data;
    body = (
      <>
        <section className={`${ui.card} ${ui.field}`} data-testid="deposit-address-card">
          <div className={ui.row} style={{ justifyContent: 'center' }}>
            <QrCode value={data.address} size={180} />
          </div>
          <span className={ui.label}>{t('deposit.address')}</span>
          <span className={ui.address} data-testid="deposit-address">
            {data.address}
          </span>
          <Button
            block
            color="primary"
            fill="outline"
            data-testid="deposit-copy"
            onClick={() => void copyText(data.address)}
          >
            {t('deposit.copy')}
          </Button>
        </section>
        <section className={`${ui.card} ${ui.field}`} data-testid="deposit-notice">
          <div className={ui.row}>
            <span className={ui.label}>{t('deposit.minimum')}</span>
            <span data-testid="deposit-minimum">
              {format.display(data.minDepositMinor, view.displayOf(coin))} {coin}
            </span>
          </div>
          <div className={ui.row}>
            <span className={ui.label}>{t('deposit.confirmations')}</span>
            <span data-testid="deposit-confirmations">{data.confirmations}</span>
          </div>
          <div className={ui.row}>
            <span className={ui.label}>{t('deposit.arrival')}</span>
            <span>{t('deposit.minutes', { minutes: data.expectedArrivalMinutes })}</span>
          </div>
          <p className={ui.muted}>
            {t('deposit.notice', {
              coin,
              network: view.networkLabel(network, coin),
              minimum: format.display(data.minDepositMinor, view.displayOf(coin)),
              confirmations: data.confirmations,
            })}
          </p>
        </section>
        <Button
          block
          color="primary"
          size="large"
          loading={confirm.isPending}
          data-testid="deposit-transferred"
          onClick={() => void onTransferred()}
        >
          {t('deposit.transferred')}
        </Button>
        {noted !== null && (
          <p className={`${ui.card} ${ui.muted}`} role="status" data-testid="deposit-transferred-noted">
            {t('deposit.transferredNoted', { left: noted })}
          </p>
        )}
      </>
    );
  }

  return (
    <WalletPage title={t('deposit.title')} testId="wallet-deposit" parent="/coinTopup">
      <NoticeBar content={t('deposit.warning')} color="alert" wrap />
      {view && (
        <section className={`${ui.card} ${ui.field}`}>
          <span className={ui.label}>{t('common.coin')}</span>
          <ChipSelect
            testId="deposit-coin"
            columns={4}
            options={coins.map((code) => ({ label: code, value: code, icon: <CoinIcon coin={code} /> }))}
            value={coin}
            onChange={(next) => {
              setNoted(null);
              choose({ coin: next });
            }}
          />
          <span className={ui.label}>{t('common.network')}</span>
          <ChipSelect
            testId="deposit-network"
            columns={2}
            options={networks.map((p) => ({
              icon: <NetworkIcon network={p.network} />,
              label: p.depositEnabled
                ? view.networkLabel(p.network, coin)
                : `${view.networkLabel(p.network, coin)} · ${t('deposit.unavailable')}`,
              value: p.network,
            }))}
            value={network}
            onChange={(next) => {
              setNoted(null);
              choose({ network: next });
            }}
          />
        </section>
      )}
      {body}
    </WalletPage>
  );
}
