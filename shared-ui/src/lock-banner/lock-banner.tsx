import { type SecurityLock, useOutflowLocks } from '@cw/shared-state/security';
import { useUiTranslation } from '../i18n/index.ts';
import './lock-banner.css';

/** Events that start the 24 h hold with their own wording; any other (a new one) reads "a security change". */
const KNOWN_REASONS = new Set([
  'password_reset',
  'password_changed',
  'fund_password_changed',
  'totp_enabled',
  'totp_disabled',
  'passkey_added',
  'passkey_removed',
  'passkey_counter_regressed',
  'email_changed',
  'new_device_confirmed',
]);

function LockLine({ lock }: { lock: SecurityLock }) {
  const { t, i18n } = useUiTranslation();
  // Local time in the UI language: "until when" is read by the owner where they are.
  const until = lock.until
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(lock.until))
    : null;
  if (lock.kind === 'account_frozen') {
    return (
      <p className="cw-lock-banner__line" data-testid="lock-frozen">
        {until ? t('lock.frozenUntil', { until }) : t('lock.frozen')}
      </p>
    );
  }
  if (lock.kind === 'reorg_hold') {
    return (
      <p className="cw-lock-banner__line" data-testid="lock-reorg">
        {t('lock.reorg')}
      </p>
    );
  }
  const reason = lock.reason && KNOWN_REASONS.has(lock.reason) ? lock.reason : 'other';
  return (
    <p className="cw-lock-banner__line" data-testid="lock-hold">
      <strong>{t('lock.holdUntil', { until })}</strong> {t(`lock.reason.${reason}`)}
    </p>
  );
}

/**
 * "Withdrawals and sends are held until …, because …": one line per lock on the account's outflows
 * (GET /api/me/security/locks), on the withdraw and send screens and in security settings. Renders
 * nothing while none holds (or before the answer).
 */
export function LockBanner({ testId = 'lock-banner' }: { testId?: string }) {
  const locks = useOutflowLocks();
  const { t } = useUiTranslation();
  const list = locks.data ?? [];
  if (list.length === 0) return null;
  return (
    <div className="cw-lock-banner" role="status" data-testid={testId}>
      <p className="cw-lock-banner__title">{t('lock.title')}</p>
      {list.map((lock) => (
        <LockLine key={lock.kind} lock={lock} />
      ))}
    </div>
  );
}
