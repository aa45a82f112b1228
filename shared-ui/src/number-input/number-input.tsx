import type { InputHTMLAttributes, Ref } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { toast } from '../toast/toast.ts';
import { checkDecimalInput, clampDecimal } from './decimal.ts';
import { localeSeparators } from './locale-decimal.ts';
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
  /**
   * The language amounts are typed in (its decimal and grouping separators); default the app's. A
   * misplaced separator is refused, never reinterpreted (parseLocaleDecimal).
   */
  locale?: string;
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
  locale,
  ...inputProps
}: NumberInputProps) {
  const { t, i18n } = useUiTranslation();
  const language = locale ?? i18n.language;
  const separators = localeSeparators(language);
  // A plain value ("1.5") is shown with the language's decimal separator ("1,5"); one the caller
  // localised already has no point left to replace.
  const shown = (plain: string) => (separators.decimal === '.' ? plain : plain.replace('.', separators.decimal));
  const refusal = (reason: 'characters' | 'decimals' | 'separator') =>
    reason === 'characters'
      ? t('amount.digitsOnly')
      : reason === 'decimals'
        ? t('amount.tooManyDecimals', { count: decimals })
        : t('amount.separator', { decimal: separators.decimal, group: separators.group });
  return (
    <input
      inputMode={decimals > 0 ? 'decimal' : 'numeric'}
      autoComplete="off"
      {...inputProps}
      type="text"
      className={`cw-input ${className}`}
      value={shown(value)}
      onChange={(event) => {
        const checked = checkDecimalInput(event.target.value, decimals, language);
        if (!checked.ok) {
          event.target.value = shown(value);
          toast.text(refusal(checked.reason));
          return;
        }
        onChange(checked.value);
        if (shown(checked.value) !== event.target.value) event.target.value = shown(checked.value);
      }}
      onBlur={(event) => {
        const clamped = clampDecimal(value, min, max);
        if (clamped !== value) onChange(clamped);
        onBlur?.(event);
      }}
    />
  );
}
