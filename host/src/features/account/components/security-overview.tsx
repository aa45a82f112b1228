import { useErrorMessage } from '@cw/shared-state/errors';
import { LockBanner } from '@cw/shared-ui/lock-banner';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type SecurityOverviewData, useSecurityOverview } from '../api/overview-queries.ts';
import { deviceText, placeText } from '../utils/login-labels.ts';

type NextStep = SecurityOverviewData['next'][number];

/** Where each suggested step is done on this screen (scrolled to on tap). */
const STEP_TARGETS: Record<NextStep, string> = {
  add_passkey: 'passkeys-section',
  add_authenticator: 'second-factor-section',
  turn_on_allowlist: 'allowlist-section',
  new_recovery_codes: 'second-factor-section',
};

function scrollToSection(testId: string) {
  document.querySelector(`[data-testid="${testId}"]`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function useFormatTime() {
  const { i18n } = useTranslation('host');
  return (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Factors and allowlist, one row each. */
function FactorRows({ data }: { data: SecurityOverviewData }) {
  const { t } = useTranslation('host');
  const formatTime = useFormatTime();
  const { factors, allowlist } = data;
  const hasFactor = factors.totp || factors.passkeys > 0;
  let allowlistText = t('account.overview.off');
  if (allowlist.on)
    allowlistText = allowlist.offAt
      ? t('account.overview.allowlistOffAt', { time: formatTime(allowlist.offAt) })
      : t('account.overview.on');
  return (
    <>
      <List.Item
        extra={
          <span data-testid="overview-passkeys">
            {factors.passkeys > 0
              ? t('account.overview.passkeys', { count: factors.passkeys })
              : t('account.overview.none')}
          </span>
        }
      >
        {t('account.passkey.title')}
      </List.Item>
      <List.Item
        extra={
          <span data-testid="overview-totp">{factors.totp ? t('account.overview.on') : t('account.overview.off')}</span>
        }
      >
        {t('account.totp.title')}
      </List.Item>
      {hasFactor && (
        <List.Item
          extra={
            <span data-testid="overview-recovery">
              {t('account.overview.codesLeft', { count: factors.recoveryCodesLeft })}
            </span>
          }
        >
          {t('account.overview.recoveryCodes')}
        </List.Item>
      )}
      <List.Item extra={<span data-testid="overview-allowlist">{allowlistText}</span>}>
        {t('account.allowlist.title')}
      </List.Item>
    </>
  );
}

/** The latest sign-in (time, device, place) and failed attempts after it; opens the login history. */
function LastSignInRow({ data }: { data: SecurityOverviewData }) {
  const { t, i18n } = useTranslation('host');
  const navigate = useNavigate();
  const formatTime = useFormatTime();
  const last = data.lastSignIn;
  const description = last
    ? [
        formatTime(last.at),
        deviceText(last.device) ?? t('account.logins.noBrowser'),
        placeText(last.place, i18n.language) ?? last.ip,
      ]
        .filter(Boolean)
        .join(' · ')
    : t('account.overview.noSignIn');
  return (
    <List.Item
      clickable
      onClick={() => navigate('/securityLogins')}
      description={
        <>
          <span data-testid="overview-last-sign-in">{description}</span>
          {data.failedSinceLastSignIn > 0 && (
            <span className="account-overview-warn" data-testid="overview-failed">
              {t('account.overview.failedSince', { count: data.failedSinceLastSignIn })}
            </span>
          )}
        </>
      }
      extra={t('account.overview.history')}
      data-testid="overview-logins"
    >
      {t('account.overview.lastSignIn')}
    </List.Item>
  );
}

/**
 * The top of security settings (issue 31): the lock banner, which factors are on, the allowlist,
 * the last sign-in, and what to do next. Read from GET /api/me/security/overview.
 */
export function SecurityOverview() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const overview = useSecurityOverview();
  if (overview.isError)
    return (
      <button
        type="button"
        className="remote-failed"
        onClick={() => void overview.refetch()}
        data-testid="overview-retry"
      >
        {message(overview.error)} · {t('account.security.loadFailed')}
      </button>
    );
  const data = overview.data;
  return (
    <div className="account-overview" data-testid="security-overview" aria-busy={overview.isPending}>
      <div className="account-section account-overview-banner">
        <LockBanner testId="security-lock-banner" />
      </div>
      {data && (
        <>
          <h2 className="account-section-title account-section">{t('account.overview.title')}</h2>
          <List className="account-security">
            <FactorRows data={data} />
            <LastSignInRow data={data} />
          </List>
          {data.next.length > 0 && (
            <>
              <h2 className="account-section-title account-section">{t('account.overview.next')}</h2>
              <List className="account-security" data-testid="overview-next">
                {data.next.map((step) => (
                  <List.Item
                    key={step}
                    clickable
                    onClick={() => scrollToSection(STEP_TARGETS[step])}
                    data-testid={`overview-next-${step}`}
                  >
                    {t(`account.overview.step.${step}`)}
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </>
      )}
    </div>
  );
}
