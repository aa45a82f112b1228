import { api, unwrap } from '@cw/shared-state/api';
import { useTranslation } from '@cw/shared-state/i18n';
import { useKnownSession, useUserId } from '@cw/shared-state/session';
import { useQuery } from '@tanstack/react-query';

type Lang = 'zh-CN' | 'zh-TW' | 'en' | 'es';
const LANGS: readonly string[] = ['zh-CN', 'zh-TW', 'en', 'es'];

const fetchSign = () => unwrap(api.GET('/api/rewards/sign'));
const fetchLikes = (lang: Lang) => unwrap(api.GET('/api/rewards/likes', { params: { query: { lang } } }));
const fetchInvite = () => unwrap(api.GET('/api/rewards/invite'));

export type HubSign = Awaited<ReturnType<typeof fetchSign>>;
export type HubLikes = Awaited<ReturnType<typeof fetchLikes>>;
export type HubInvite = Awaited<ReturnType<typeof fetchInvite>>;

export interface HubState {
  signedIn: boolean;
  sign?: HubSign;
  likes?: HubLikes;
  invite?: HubInvite;
}

/**
 * Today's state for the rewards hub, from the endpoints the three screens read (the same query keys
 * as sign/likes/invite, so opening a screen from the hub shows it at once). Nothing is asked for a
 * visitor: the hub then shows the entries' descriptions only.
 */
export function useHubState(): HubState {
  const { i18n } = useTranslation();
  const signedIn = useKnownSession() === 'authenticated';
  const userId = useUserId();
  const lang = (LANGS.includes(i18n.language) ? i18n.language : 'zh-CN') as Lang;
  const enabled = signedIn && userId !== '';
  const sign = useQuery({ queryKey: ['rewards', 'sign', userId], queryFn: fetchSign, enabled });
  const likes = useQuery({ queryKey: ['rewards', 'likes', lang], queryFn: () => fetchLikes(lang), enabled });
  const invite = useQuery({ queryKey: ['rewards', 'invite'], queryFn: fetchInvite, enabled });
  return { signedIn: enabled, sign: sign.data, likes: likes.data, invite: invite.data };
}
