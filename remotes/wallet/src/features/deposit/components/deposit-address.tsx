import type { CatalogueView } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { copyText } from '@cw/shared-ui/clipboard';
import { QrCode } from '@cw/shared-ui/qr-code';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import type { DepositAddress } from '../api/deposit.ts';
import { useConfirmTransferredMutation } from '../api/deposit-queries.ts';
import { PaymentRequest } from './payment-request.tsx';
import { WalletDeposit } from './wallet-deposit.tsx';

interface Props {
  data: DepositAddress;
  coin: string;
  network: string;
  view: CatalogueView;
}

/** The address as QR and text, with copy. */
function AddressCard({ address }: { address: string }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <section className={`${ui.card} ${ui.field}`} data-testid="deposit-address-card">
      <div className={ui.row} style={{ justifyContent: 'center' }}>
        <QrCode value={address} size={180} />
      </div>
      <span className={ui.label}>{t('deposit.address')}</span>
      <span className={ui.address} data-testid="deposit-address">
        {address}
      </span>
      <Button block color="primary" fill="outline" data-testid="deposit-copy" onClick={() => void copyText(address)}>
        {t('deposit.copy')}
      </Button>
    </section>
  );
}

/** Minimum, confirmations, expected arrival, and the notice in words. */
function DepositNotice({ data, coin, network, view }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const minimum = format.display(data.minDepositMinor, view.displayOf(coin));
  return (
    <section className={`${ui.card} ${ui.field}`} data-testid="deposit-notice">
      <div className={ui.row}>
        <span className={ui.label}>{t('deposit.minimum')}</span>
        <span data-testid="deposit-minimum">
          {minimum} {coin}
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
          minimum,
          confirmations: data.confirmations,
        })}
      </p>
    </section>
  );
}

/** "I have transferred": opens the deposit when it is found, else says how many tries are left today. */
function TransferredButton({ coin, network }: { coin: string; network: string }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const confirm = useConfirmTransferredMutation();
  const [noted, setNoted] = useState<number | null>(null);
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
  return (
    <>
      <Button
        block
        color="primary"
        size="large"
        loading={confirm.isPending}
        data-testid="deposit-transferred"
        onClick={onTransferred}
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

/** The user's address on the chosen network, what to know before sending, and "I have transferred". */
export function DepositAddressView(props: Props) {
  return (
    <>
      <AddressCard address={props.data.address} />
      <PaymentRequest
        key={`request/${props.coin}/${props.network}`}
        coin={props.coin}
        network={props.network}
        address={props.data.address}
        view={props.view}
      />
      <WalletDeposit
        key={`wallet/${props.coin}/${props.network}`}
        coin={props.coin}
        network={props.network}
        address={props.data.address}
        view={props.view}
      />
      <DepositNotice {...props} />
      {/* A new coin or network starts without the note of another one's tries. */}
      <TransferredButton key={`${props.coin}/${props.network}`} coin={props.coin} network={props.network} />
    </>
  );
}
