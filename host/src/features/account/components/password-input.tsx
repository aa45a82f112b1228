import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { type InputHTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  autoComplete: 'current-password' | 'new-password' | 'one-time-code' | 'off';
};

/** A real password input (paste and password managers work) with an eye button to reveal it. */
export function PasswordInput(props: Props) {
  const { t } = useTranslation('host');
  const [revealed, setRevealed] = useState(false);
  return (
    <>
      <input {...props} type={revealed ? 'text' : 'password'} className="account-input" spellCheck={false} />
      <button
        type="button"
        className="account-input__eye"
        aria-label={revealed ? t('account.action.hidePassword') : t('account.action.showPassword')}
        aria-pressed={revealed}
        onClick={() => setRevealed((value) => !value)}
      >
        {revealed ? <EyeOutline aria-hidden /> : <EyeInvisibleOutline aria-hidden />}
      </button>
    </>
  );
}
