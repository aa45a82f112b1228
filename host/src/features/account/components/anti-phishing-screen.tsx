import '../account.css';
import '../security-extras.css';
import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { antiPhishing, setAntiPhishing } from '../api/email-change-api.ts';
import type { FieldProblem } from '../hooks/use-form.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { FormField } from './form-field.tsx';
import { ReauthForm } from './reauth-form.tsx';
import { SubmitButton } from './submit-button.tsx';

/** The server's bounds (server/src/modules/mail/anti-phishing.ts): 4–32 characters, no markup. */
const PHRASE_MIN = 4;
const PHRASE_MAX = 32;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const REFUSED = /[<>&"'\u0000-\u001f\u007f]/;

/** "Blue Kettle 42" -> "Bl••••••••••42": enough to recognise, not enough to copy from over a shoulder. */
export function maskPhrase(phrase: string): string {
  const chars = Array.from(phrase);
  const shown = chars.length <= 5 ? 1 : 2;
  return `${chars.slice(0, shown).join('')}${'•'.repeat(Math.max(2, chars.length - 2 * shown))}${chars.slice(-shown).join('')}`;
}

export function phraseRule(phrase: string): string | null {
  const length = Array.from(phrase.trim()).length;
  if (length < PHRASE_MIN || length > PHRASE_MAX) return 'antiPhishing.length';
  if (REFUSED.test(phrase)) return 'antiPhishing.charset';
  return null;
}

/**
 * /antiPhishing (login needed): the phrase shown at the top of every mail we send, so a mail without it
 * stands out as not ours. Set, change or remove; shown masked with a reveal. A security change: the
 * server asks for a fresh proof (REAUTH_REQUIRED), then the step is tried again.
 */
export default function AntiPhishingScreen() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const [current, setCurrent] = useState<string | null | undefined>(undefined);
  const [revealed, setRevealed] = useState(false);
  const [phrase, setPhrase] = useState('');
  const [problem, setProblem] = useState<FieldProblem | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [reauth, setReauth] = useState(false);
  const retry = useRef<(() => unknown) | null>(null);

  const load = useCallback(() => {
    antiPhishing().then(
      (r) => setCurrent(r.phrase),
      (error: unknown) => notifyFail(message(error)),
    );
  }, [message]);
  // Once: `message` changes when the error texts load, which must not read the phrase again.
  useEffect(load, []);

  const save = async (next: string | null) => {
    setBusy(true);
    try {
      const r = await setAntiPhishing(next);
      setCurrent(r.phrase);
      setPhrase('');
      setRevealed(false);
      notifySuccess(t(next === null ? 'account.antiPhishing.removed' : 'account.antiPhishing.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REAUTH_REQUIRED') {
        retry.current = () => void save(next);
        setReauth(true);
      } else if (next !== null && error instanceof ApiError && error.code === 'VALIDATION_FAILED') {
        setProblem({ error });
      } else notifyFail(message(error));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const rule = phraseRule(phrase);
    setProblem(rule ? { rule } : undefined);
    if (!rule && !busy) void save(phrase.trim());
  };

  if (current === undefined) return null;
  return (
    <AccountPage title={t('account.antiPhishing.title')} testId="anti-phishing-screen">
      <p className="account-hint">{t('account.antiPhishing.explain')}</p>
      <p className="account-hint">{t('account.antiPhishing.never')}</p>
      <div className="account-phrase" data-testid="anti-phishing-current">
        {current === null ? (
          <span>{t('account.antiPhishing.none')}</span>
        ) : (
          <>
            <span>{t('account.antiPhishing.currentLabel')}</span>{' '}
            <strong className="account-phrase__value" data-testid="anti-phishing-value">
              {revealed ? current : maskPhrase(current)}
            </strong>{' '}
            <button
              type="button"
              className="account-phrase__toggle"
              onClick={() => setRevealed((v) => !v)}
              data-testid="anti-phishing-reveal"
            >
              {revealed ? t('account.antiPhishing.hide') : t('account.antiPhishing.show')}
            </button>
          </>
        )}
      </div>
      {reauth ? (
        <ReauthForm
          testId="anti-phishing-reauth"
          onProved={() => {
            setReauth(false);
            retry.current?.();
          }}
        />
      ) : (
        <form className="account-form" noValidate onSubmit={onSubmit}>
          <FormField
            name="phrase"
            label={current === null ? t('account.antiPhishing.newLabel') : t('account.antiPhishing.changeLabel')}
            problem={problem}
            hint={t('account.antiPhishing.rule', { min: PHRASE_MIN, max: PHRASE_MAX })}
          >
            <input
              id="phrase"
              className="account-input"
              value={phrase}
              maxLength={PHRASE_MAX}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setPhrase(event.target.value)}
              placeholder={t('account.antiPhishing.placeholder')}
              data-testid="anti-phishing-input"
            />
          </FormField>
          <SubmitButton loading={busy} testId="anti-phishing-save">
            {current === null ? t('account.antiPhishing.set') : t('account.antiPhishing.change')}
          </SubmitButton>
          {current !== null && (
            <Button block disabled={busy} onClick={() => void save(null)} data-testid="anti-phishing-remove">
              {t('account.antiPhishing.remove')}
            </Button>
          )}
        </form>
      )}
    </AccountPage>
  );
}
