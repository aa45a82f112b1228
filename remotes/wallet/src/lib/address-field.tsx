import { useTranslation } from '@cw/shared-state/i18n';
import { shortAddress } from '@cw/shared-state/web3';
import { QrScanner } from '@cw/shared-ui/qr-scanner';
import { toast } from '@cw/shared-ui/toast';
import { TextArea } from 'antd-mobile';
import { ScanningOutline, UserContactOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { NAMESPACE } from '../i18n.ts';
import * as styles from './address-field.module.css';
import { type PaymentContext, type PaymentRequest, readPaymentFor, readPaymentUri } from './payment-uri.ts';

interface AddressFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
  /** Shows the address-book button when given. */
  onPickFromBook?: () => void;
  onBlur?: () => void;
  /** The selected network and coin: a scanned request for another chain or asset is refused. */
  payment?: PaymentContext;
}

/**
 * The recipient of a scanned text: a bare address, a payment URI's address, and for an EIP-681 token
 * transfer its `address` parameter (never the token contract); '' when it cannot be read exactly.
 */
export function addressFromScan(text: string): string {
  const read = readPaymentUri(text, null);
  return read.ok ? read.request.address : '';
}

/** "From the QR code: to 0x5290…9EE7 · token contract 0xdAC1…1ec7 · amount 1500000 · chain 1". */
function ScannedRequest({ request, testId }: { request: PaymentRequest; testId: string }) {
  const { t } = useTranslation(NAMESPACE);
  if (request.kind === 'address') return null;
  const parts = [t('paymentQr.read', { address: shortAddress(request.address) })];
  if (request.kind === 'token') parts.push(t('paymentQr.token', { token: shortAddress(request.token) }));
  const amount = request.kind === 'token' ? request.amountUnits : request.amountWei;
  if (amount !== null) parts.push(t('paymentQr.amount', { amount: amount.toString() }));
  if (request.chainId !== null) parts.push(t('paymentQr.chainId', { chainId: request.chainId }));
  return (
    <p className={styles.scanned} role="status" data-testid={`${testId}-scanned`}>
      {parts.join(' · ')}
    </p>
  );
}

/** An address text field with a QR scanner button and, optionally, an address-book button. */
export function AddressField({
  value,
  onChange,
  placeholder,
  testId,
  onPickFromBook,
  onBlur,
  payment,
}: AddressFieldProps) {
  const { t } = useTranslation(NAMESPACE);
  const [scanning, setScanning] = useState(false);
  const [scanned, setScanned] = useState<PaymentRequest | null>(null);
  const onScan = (text: string) => {
    const read = readPaymentFor(text, payment);
    if (!read.ok) {
      toast.fail(t(`paymentQr.${read.problem}`));
      return;
    }
    setScanned(read.request);
    onChange(read.request.address);
  };
  return (
    <>
      <div className={styles.wrap}>
        <TextArea
          className={styles.input}
          value={value}
          onChange={(next) => {
            setScanned(null);
            onChange(next.replace(/\s+/g, ''));
          }}
          onBlur={onBlur}
          placeholder={placeholder}
          rows={2}
          maxLength={120}
          data-testid={testId}
        />
        <span className={styles.actions}>
          {onPickFromBook && (
            <button
              type="button"
              className={styles.icon}
              aria-label={t('send.pickFromBook')}
              data-testid={`${testId}-book`}
              onClick={onPickFromBook}
            >
              <UserContactOutline aria-hidden />
            </button>
          )}
          <button
            type="button"
            className={styles.icon}
            aria-label={t('send.scan')}
            data-testid={`${testId}-scan`}
            onClick={() => setScanning(true)}
          >
            <ScanningOutline aria-hidden />
          </button>
        </span>
        <QrScanner open={scanning} onClose={() => setScanning(false)} onResult={onScan} />
      </div>
      {scanned && <ScannedRequest request={scanned} testId={testId} />}
    </>
  );
}
