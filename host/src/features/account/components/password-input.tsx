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
        <EyeIcon open={revealed} />
      </button>
    </>
  );
}

/**
 * The eye, drawn here in the icon kit's 1em outline style: the kit's eye icons carry ~2.5 KB of path
 * data each into the landing page, where every byte delays the first screen.
 */
function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" strokeLinejoin="round" />
      <circle cx="12" cy="12" r="3" />
      {open ? null : <path d="M4 20 20 4" strokeLinecap="round" />}
    </svg>
  );
}
