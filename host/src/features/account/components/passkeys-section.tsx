import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import {
  addPasskey,
  listPasskeys,
  type PasskeyInfo,
  passkeyAnswer,
  passkeysSupported,
  removePasskey,
  renamePasskey,
} from '@cw/shared-state/passkeys';
import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reauthenticate, reauthenticateWithPasskey } from '../api/account-api.ts';
import { accountKeys } from '../api/account-queries.ts';
import { refreshSecurityViews } from '../api/overview-queries.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';
import { ReauthCodeField } from './reauth-code-field.tsx';

type Step =
  | { kind: 'idle' }
  | { kind: 'reauth'; after: () => Promise<void> }
  | { kind: 'rename'; passkey: PasskeyInfo }
  | { kind: 'codes'; codes: string[] };

/** A cancelled browser prompt (NotAllowedError / AbortError) is the user's choice, not a failure to report loudly. */
const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

/**
 * Passkeys in security settings: the list (name, added, last used, synced), add one on this device,
 * rename, remove. Adding and removing are security changes: they need a proof within 5 minutes
 * (REAUTH_REQUIRED: the password and code, or a passkey) and start the 24 h outflow hold.
 */
export function PasskeysSection() {
  const { t, i18n } = useTranslation('host');
  const message = useErrorMessage();
  const [passkeys, setPasskeys] = useState<PasskeyInfo[] | null>(null);
  const [max, setMax] = useState(10);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  // ASVS 7.4.3: a factor added or removed offers to end every other session (the server's default).
  const [endOthers, setEndOthers] = useState(true);
  const queryClient = useQueryClient();
  /** The overview, the lock banner and the device list change with a passkey. */
  const refreshAround = () => {
    refreshSecurityViews();
    void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
  };
  const supported = passkeysSupported();

  const load = useCallback(() => {
    listPasskeys().then(
      (list) => {
        setPasskeys(list.passkeys);
        setMax(list.max);
      },
      (error: unknown) => notifyFail(message(error)),
    );
  }, [message]);
  useEffect(load, []);

  const fail = (error: unknown) => notifyFail(cancelled(error) ? t('account.passkey.cancelled') : message(error));

  /** Runs a change; when the server asks for a fresh proof, asks for it and then runs the change again. */
  const guarded = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REAUTH_REQUIRED') setStep({ kind: 'reauth', after: action });
      else fail(error);
    } finally {
      setBusy(false);
    }
  };

  const add = () =>
    guarded(async () => {
      const result = await addPasskey(name.trim() || t('account.passkey.defaultName'), endOthers);
      setName('');
      notifySuccess(endOthers ? t('account.passkey.addedEnded') : t('account.passkey.added'));
      refreshAround();
      setStep(result.recoveryCodes ? { kind: 'codes', codes: result.recoveryCodes } : { kind: 'idle' });
      load();
    });

  const remove = (passkey: PasskeyInfo) =>
    Dialog.confirm({
      content: t('account.passkey.removeConfirm', { name: passkey.name }),
      confirmText: t('account.passkey.remove'),
      cancelText: t('account.passkey.cancel'),
      onConfirm: () =>
        guarded(async () => {
          await removePasskey(passkey.id, endOthers);
          notifySuccess(endOthers ? t('account.passkey.removedEnded') : t('account.passkey.removed'));
          refreshAround();
          setStep({ kind: 'idle' });
          load();
        }),
    });

  const reauthWith = (proof: () => Promise<void>) => {
    if (step.kind !== 'reauth') return;
    const after = step.after;
    void guarded(async () => {
      await proof();
      setPassword('');
      setCode('');
      setStep({ kind: 'idle' });
      await after();
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step.kind === 'reauth') reauthWith(() => reauthenticate(password, code));
    if (step.kind === 'rename') {
      const { passkey } = step;
      void guarded(async () => {
        await renamePasskey(passkey.id, name);
        setName('');
        notifySuccess(t('account.passkey.renamed'));
        setStep({ kind: 'idle' });
        load();
      });
    }
  };

  const formatTime = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  if (!passkeys) return null;
  const hasAny = passkeys.length > 0;
  return (
    <div className="account-section" data-testid="passkeys-section">
      <h2 className="account-section-title">{t('account.passkey.title')}</h2>
      <p className="account-hint">{t('account.passkey.lead')}</p>
      <p className="account-hint" data-testid="passkeys-count">
        {hasAny ? t('account.passkey.count', { count: passkeys.length, max }) : t('account.passkey.none')}
      </p>
      {hasAny && (
        <List className="account-security" data-testid="passkeys-list">
          {passkeys.map((passkey) => (
            <List.Item
              key={passkey.id}
              data-testid="passkey-item"
              description={[
                t('account.passkey.created', { time: formatTime(passkey.createdAt) }),
                passkey.lastUsedAt
                  ? t('account.passkey.lastUsed', { time: formatTime(passkey.lastUsedAt) })
                  : t('account.passkey.neverUsed'),
                passkey.synced ? t('account.passkey.synced') : null,
              ]
                .filter(Boolean)
                .join(' · ')}
              extra={
                <span className="account-inline-actions">
                  <Button
                    size="mini"
                    fill="none"
                    onClick={() => {
                      setName(passkey.name);
                      setStep({ kind: 'rename', passkey });
                    }}
                    data-testid="passkey-rename"
                  >
                    {t('account.passkey.rename')}
                  </Button>
                  <Button
                    size="mini"
                    fill="none"
                    color="danger"
                    onClick={() => void remove(passkey)}
                    data-testid="passkey-remove"
                  >
                    {t('account.passkey.remove')}
                  </Button>
                </span>
              }
            >
              <span data-testid="passkey-name">{passkey.name}</span>
            </List.Item>
          ))}
        </List>
      )}
      {step.kind === 'codes' && (
        <div data-testid="passkey-recovery-codes">
          <p className="account-hint">{t('account.totp.codesOnce')}</p>
          <pre className="account-recovery-codes">{step.codes.join('\n')}</pre>
          <Button block onClick={() => setStep({ kind: 'idle' })} data-testid="passkey-codes-done">
            {t('account.totp.saved')}
          </Button>
        </div>
      )}
      {step.kind === 'reauth' && (
        <form className="account-form" noValidate onSubmit={onSubmit} data-testid="passkey-reauth">
          <p className="account-hint">{t('account.totp.reauthLead')}</p>
          {hasAny && supported && (
            <>
              <Button
                block
                color="primary"
                loading={busy}
                onClick={() => reauthWith(async () => reauthenticateWithPasskey(await passkeyAnswer('reauth')))}
                data-testid="passkey-reauth-passkey"
              >
                {t('account.passkey.useForReauth')}
              </Button>
              <p className="account-hint">{t('account.passkey.or')}</p>
            </>
          )}
          <FormField name="password" label={t('account.field.password')} problem={undefined}>
            <PasswordInput
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="current-password"
              data-testid="passkey-reauth-password"
            />
          </FormField>
          <ReauthCodeField value={code} onChange={setCode} testId="passkey-reauth-code" />
          <Button block type="submit" loading={busy} data-testid="passkey-reauth-submit">
            {t('account.totp.confirm')}
          </Button>
        </form>
      )}
      {step.kind === 'rename' && (
        <form className="account-form" noValidate onSubmit={onSubmit}>
          <input
            className="account-input"
            value={name}
            maxLength={64}
            onChange={(event) => setName(event.target.value)}
            aria-label={t('account.passkey.rename')}
            data-testid="passkey-rename-input"
          />
          <Button block type="submit" color="primary" loading={busy} data-testid="passkey-rename-save">
            {t('account.passkey.save')}
          </Button>
        </form>
      )}
      {step.kind === 'idle' && (supported || hasAny) && (
        <label className="account-hint account-check">
          <input
            type="checkbox"
            checked={endOthers}
            onChange={(event) => setEndOthers(event.target.checked)}
            data-testid="passkey-end-others"
          />{' '}
          {t('account.passkey.endOthers')}
        </label>
      )}
      {step.kind === 'idle' && !supported && <p className="account-hint">{t('account.passkey.unsupported')}</p>}
      {step.kind === 'idle' && supported && passkeys.length < max && (
        <div className="account-form">
          <input
            className="account-input"
            value={name}
            maxLength={64}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('account.passkey.namePlaceholder')}
            aria-label={t('account.passkey.namePlaceholder')}
            data-testid="passkey-name-input"
          />
          <Button block loading={busy} onClick={() => void add()} data-testid="passkey-add">
            {t('account.passkey.add')}
          </Button>
        </div>
      )}
    </div>
  );
}
