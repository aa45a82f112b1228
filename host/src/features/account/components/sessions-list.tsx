import type { SessionInfo } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { useRevokeOthersMutation, useRevokeSessionMutation, useSessions } from '../api/account-queries.ts';
import { deviceName } from '../utils/device-name.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';

/** The user's signed-in devices, with "sign out" per device and for all the others. */
export function SessionsList() {
  const { t, i18n } = useTranslation('host');
  const message = useErrorMessage();
  const sessions = useSessions();
  const revokeOthers = useRevokeOthersMutation();
  const revokeOne = useRevokeSessionMutation();
  const onFail = (error: unknown) => notifyFail(message(error));
  const formatTime = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

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
          <List.Item
            key={session.id}
            data-testid={session.current ? 'session-current' : 'session-other'}
            description={[t('account.security.lastSeen', { time: formatTime(session.lastSeenAt) }), session.ip]
              .filter(Boolean)
              .join(' · ')}
            extra={
              session.current ? (
                <Tag color="primary" fill="outline">
                  {t('account.security.current')}
                </Tag>
              ) : (
                <Button
                  size="mini"
                  onClick={() =>
                    revokeOne.mutate(session.id, {
                      onSuccess: () => notifySuccess(t('account.security.revoked')),
                      onError: onFail,
                    })
                  }
                  loading={revokeOne.isPending && revokeOne.variables === session.id}
                  data-testid={`session-revoke-${session.id}`}
                >
                  {t('account.security.revoke')}
                </Button>
              )
            }
          >
            {deviceName(session.userAgent) ?? t('account.security.unknownDevice')}
          </List.Item>
        ))}
      </List>
      {sessions.isSuccess && others === 0 && <p className="account-hint">{t('account.security.noOthers')}</p>}
      <Button
        block
        color="danger"
        fill="outline"
        disabled={others === 0}
        loading={revokeOthers.isPending}
        onClick={() =>
          revokeOthers.mutate(undefined, {
            onSuccess: (revoked) => notifySuccess(t('account.security.revokedOthers', { revoked })),
            onError: onFail,
          })
        }
        data-testid="security-revoke-others"
        className="account-submit"
      >
        {t('account.security.revokeOthers')}
      </Button>
    </div>
  );
}
