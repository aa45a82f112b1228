import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { type InputHTMLAttributes, type Ref, useState } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import '../internal/input.css';
import './password-field.css';

export interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  ref?: Ref<HTMLInputElement>;
  /** Start revealed. */
  defaultRevealed?: boolean;
  /** Class of the wrapper (the input itself takes `className`). */
  wrapperClassName?: string;
}

/**
 * A real `<input type="password">` (so paste and password managers work; name,
 * autoComplete and every other input prop pass through) with an eye button
 * that reveals the value.
 */
export function PasswordField({
  defaultRevealed = false,
  wrapperClassName = '',
  className = '',
  ...inputProps
}: PasswordFieldProps) {
  const { t } = useUiTranslation();
  const [revealed, setRevealed] = useState(defaultRevealed);
  return (
    <span className={`cw-password-field ${wrapperClassName}`}>
      <input
        autoComplete="current-password"
        {...inputProps}
        type={revealed ? 'text' : 'password'}
        className={`cw-input ${className}`}
      />
      <button
        type="button"
        className="cw-password-field__eye"
        data-testid="password-reveal"
        aria-label={revealed ? t('password.hide') : t('password.show')}
        aria-pressed={revealed}
        disabled={inputProps.disabled}
        onClick={() => setRevealed((value) => !value)}
      >
        {revealed ? <EyeOutline aria-hidden /> : <EyeInvisibleOutline aria-hidden />}
      </button>
    </span>
  );
}
