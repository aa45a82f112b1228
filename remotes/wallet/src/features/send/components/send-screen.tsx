import { useTranslation } from '@cw/shared-state/i18n';
import { LockBanner } from '@cw/shared-ui/lock-banner';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, CapsuleTabs, NoticeBar, Popup } from 'antd-mobile';
import { type ComponentType, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useCodeMessage } from '../../../lib/code-message.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { useSendForm } from '../hooks/use-send-form.ts';
import { AmountField, CoinSection, FeeSection, TargetField } from './send-sections.tsx';

/** A list of saved addresses of one network to pick from (the address book's, given by the app). */
export type AddressPicker = ComponentType<{ network: string; onPick: (entry: { address: string }) => void }>;

/** /coinTopup/send: withdraw to an address, or send to another user of the service. */
export default function SendScreen({ AddressPicker }: { AddressPicker: AddressPicker }) {
  const { t } = useTranslation(NAMESPACE);
  const codeMessage = useCodeMessage();
  const form = useSendForm();
  const [picking, setPicking] = useState(false);
  const { transfer, check, recipient } = form;

  if (!form.view)
    return (
      <WalletPage title={t('send.title')} testId="wallet-send" parent="/coinTopup">
        {form.isError ? <ErrorState onRetry={() => void form.refetch()} /> : <LoadingState />}
      </WalletPage>
    );

  return (
    <WalletPage title={transfer ? t('send.titleTransfer') : t('send.title')} testId="wallet-send" parent="/coinTopup">
      <CapsuleTabs activeKey={form.mode} onChange={(key) => form.setMode(key === 'send' ? 'send' : 'withdrawal')}>
        <CapsuleTabs.Tab title={t('send.modeWithdrawal')} key="withdrawal" />
        <CapsuleTabs.Tab title={t('send.modeUser')} key="send" />
      </CapsuleTabs>
      {/* Why nothing may leave now and until when (a hold after a security change, a freeze). */}
      <LockBanner testId="send-lock-banner" />
      <CoinSection form={form} />
      {form.withdrawDisabled && (
        <NoticeBar content={codeMessage('WITHDRAW_DISABLED')} color="alert" wrap data-testid="send-withdraw-disabled" />
      )}
      <section className={`${ui.card} ${ui.field}`}>
        <TargetField form={form} onPickFromBook={() => setPicking(true)} />
        <AmountField form={form} />
      </section>
      <FeeSection form={form} />
      <Button
        block
        color="primary"
        size="large"
        disabled={form.withdrawDisabled || (transfer && check.target === undefined && !recipient.data)}
        data-testid="send-next"
        onClick={form.next}
      >
        {t('send.next')}
      </Button>
      <Popup
        visible={picking}
        onMaskClick={() => setPicking(false)}
        bodyStyle={{ maxHeight: '70vh', overflow: 'auto' }}
      >
        <AddressPicker
          network={form.network}
          onPick={(entry) => {
            form.setTarget(entry.address);
            form.touch('target');
            setPicking(false);
          }}
        />
      </Popup>
    </WalletPage>
  );
}
