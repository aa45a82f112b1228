import type { InputHTMLAttributes, Ref } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { toast } from '../toast/toast.ts';
import { checkDecimalInput, clampDecimal } from './decimal.ts';
import '../internal/input.css';

export interface NumberInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'min' | 'max'> {
  ref?: Ref<HTMLInputElement>;
  /** The amount as a decimal string ('' when empty). */
  value: string;
  onChange: (value: string) => void;
  /** Fraction digits allowed (0 = integers). Default 0. */
  decimals?: number;
  /** Decimal strings; the value is clamped to them on blur. */
  min?: string;
  max?: string;
}

/**
 * A text input for amounts, on decimal strings (no floats): full precision up to `decimals`; a
 * keystroke or paste that is not an amount ("1e5", a letter, one decimal too many) is refused with a
 * translated notice and leaves the value as it was. Clamps to min/max on blur.
 */
export function NumberInput({
  value,
  onChange,
  decimals = 0,
  min,
  max,
  onBlur,
  className = '',
  ...inputProps
}: NumberInputProps) {
  const { t } = useUiTranslation();
  return (
    <input
      inputMode={decimals > 0 ? 'decimal' : 'numeric'}
      autoComplete="off"
      {...inputProps}
      type="text"
      className={`cw-input ${className}`}
      value={value}
      onChange={(event) => {
        const checked = checkDecimalInput(event.target.value, decimals);
        if (!checked.ok) {
          event.target.value = value;
          toast.text(
            checked.reason === 'characters' ? t('amount.digitsOnly') : t('amount.tooManyDecimals', { count: decimals }),
          );
          return;
        }
        onChange(checked.value);
        if (checked.value !== event.target.value) event.target.value = checked.value;
      }}
      onBlur={(event) => {
        const clamped = clampDecimal(value, min, max);
        if (clamped !== value) onChange(clamped);
        onBlur?.(event);
      }}
    />
  );
}
