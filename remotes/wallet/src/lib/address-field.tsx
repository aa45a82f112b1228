import { useTranslation } from '@cw/shared-state/i18n';
import { QrScanner } from '@cw/shared-ui/qr-scanner';
import { TextArea } from 'antd-mobile';
import { ScanningOutline, UserContactOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { NAMESPACE } from '../i18n.ts';
import * as styles from './address-field.module.css';

interface AddressFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
  /** Shows the address-book button when given. */
  onPickFromBook?: () => void;
  onBlur?: () => void;
}

/** Strip a payment URI down to its address ("ethereum:0xabc@1?value=1" -> "0xabc"). */
export function addressFromScan(text: string): string {
  const trimmed = text.trim();
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:(\/\/)?/i, '');
  return withoutScheme.split(/[?@/]/)[0] ?? trimmed;
}

/** An address text field with a QR scanner button and, optionally, an address-book button. */
export function AddressField({ value, onChange, placeholder, testId, onPickFromBook, onBlur }: AddressFieldProps) {
  const { t } = useTranslation(NAMESPACE);
  const [scanning, setScanning] = useState(false);
  return (
    <div className={styles.wrap}>
      <TextArea
        className={styles.input}
        value={value}
        onChange={(next) => onChange(next.replace(/\s+/g, ''))}
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
      <QrScanner
        open={scanning}
        onClose={() => setScanning(false)}
        onResult={(text) => onChange(addressFromScan(text))}
      />
    </div>
  );
}
