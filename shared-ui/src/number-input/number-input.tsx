import type { InputHTMLAttributes, Ref } from 'react';
import { clampDecimal, sanitizeDecimalInput } from './decimal.ts';
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
 * A text input for amounts: strips anything but digits and one point while
 * typing, and clamps to min/max on blur, all on decimal strings (no floats).
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
  return (
    <input
      inputMode={decimals > 0 ? 'decimal' : 'numeric'}
      autoComplete="off"
      {...inputProps}
      type="text"
      className={`cw-input ${className}`}
      value={value}
      onChange={(event) => {
        const next = sanitizeDecimalInput(event.target.value, decimals);
        // Re-render even if unchanged, so stripped characters disappear.
        onChange(next);
        if (next !== event.target.value) event.target.value = next;
      }}
      onBlur={(event) => {
        const clamped = clampDecimal(value, min, max);
        if (clamped !== value) onChange(clamped);
        onBlur?.(event);
      }}
    />
  );
}
