import { QRCodeSVG } from 'qrcode.react';
import { useUiTranslation } from '../i18n/index.ts';

export interface QrCodeProps {
  value: string;
  /** Pixels. Default 180. */
  size?: number;
  /** Error correction. Default 'M'. */
  level?: 'L' | 'M' | 'Q' | 'H';
  /** Accessible label (default translated "QR code"). */
  label?: string;
  className?: string;
}

/** An SVG QR code (with a quiet-zone margin, so scanners read it on any background). */
export function QrCode({ value, size = 180, level = 'M', label, className }: QrCodeProps) {
  const { t } = useUiTranslation();
  return (
    <QRCodeSVG
      value={value}
      size={size}
      level={level}
      marginSize={2}
      role="img"
      aria-label={label ?? t('qr.label')}
      data-testid="qr-code"
      className={className}
    />
  );
}
