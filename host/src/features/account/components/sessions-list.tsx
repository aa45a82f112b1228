import type { SessionInfo } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { useRevokeOthersMutation, useRevokeSessionMutation, useSessions } from '../api/account-queries.ts';
import { clientName, deviceName } from '../utils/device-name.ts';
import { deviceText, placeText } from '../utils/login-labels.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';

/** A browser by name and system; a program (an API client, a script) by its own name; no User-Agent at all as an API client. */
function useDeviceLabel(session: SessionInfo): string {
  const { t } = useTranslation('host');
  const userAgent = session.userAgent;
  // The server's parse (browser and system with versions), else the short local one.
  const browser = deviceText(session.device) ?? deviceName(userAgent);
  if (browser) return browser;
  const program = clientName(userAgent);
  return program ? t('account.security.apiClientNamed', { name: program }) : t('account.security.apiClient');
}

/** One signed-in device: name, last seen, approximate place and IP; "this device", or sign it out. */
function SessionRow({ session }: { session: SessionInfo }) {
  const { t, i18n } = useTranslation('host');
  const message = useErrorMessage();
  const revoke = useRevokeSessionMutation();
  const device = useDeviceLabel(session);
  const formatTime = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const extra = session.current ? (
    <Tag color="primary" fill="outline">
      {t('account.security.current')}
    </Tag>
  ) : (
    <Button
      size="mini"
      onClick={() =>
        revoke.mutate(session.id, {
          onSuccess: () => notifySuccess(t('account.security.revoked')),
          onError: (error) => notifyFail(message(error)),
        })
      }
      loading={revoke.isPending}
      data-testid={`session-revoke-${session.id}`}
    >
      {t('account.security.revoke')}
    </Button>
  );
  return (
    <List.Item
      data-testid={session.current ? 'session-current' : 'session-other'}
      description={[
        t('account.security.lastSeen', { time: formatTime(session.lastSeenAt) }),
        placeText(session.place, i18n.language),
        session.ip,
      ]
        .filter(Boolean)
        .join(' · ')}
      extra={extra}
    >
      <span data-testid="session-device">{device}</span>
    </List.Item>
  );
}

/** The user's signed-in devices, with "sign out" per device and for all the others. */
export function SessionsList() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const sessions = useSessions();
  const revokeOthers = useRevokeOthersMutation();

  if (sessions.isError) {
    return (
      <button
        type="button"
        className="remote-failed"
        data-testid="security-sessions-retry"
        onClick={() => void sessions.refetch()}
      >
        {message(sessions.error)} · {t('account.security.loadFailed')}
      </button>
    );
  }
  const list: SessionInfo[] = sessions.data ?? [];
  const others = list.filter((session) => !session.current).length;
  return (
    <div data-testid="security-sessions" aria-busy={sessions.isPending}>
      <List>
        {list.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </List>
      {/* The page's side margins, like the log-out button's (issue 30 item 9). */}
      <div className="account-section">
        {sessions.isSuccess && others === 0 && (
          <p className="account-hint account-hint--after-list">{t('account.security.noOthers')}</p>
        )}
        <Button
          block
          color="danger"
          fill="outline"
          disabled={others === 0}
          loading={revokeOthers.isPending}
          onClick={() =>
            revokeOthers.mutate(undefined, {
              onSuccess: (revoked) => notifySuccess(t('account.security.revokedOthers', { revoked })),
              onError: (error) => notifyFail(message(error)),
            })
          }
          data-testid="security-revoke-others"
          className="account-submit"
        >
          {t('account.security.revokeOthers')}
        </Button>
      </div>
    </div>
  );
}
