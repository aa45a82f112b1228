import { api, unwrap } from '@cw/shared-state/api';
import { useQuery } from '@tanstack/react-query';

export function fetchInvite() {
  return unwrap(api.GET('/api/rewards/invite'));
}
export type InviteStatus = Awaited<ReturnType<typeof fetchInvite>>;

export function useInvite() {
  return useQuery({ queryKey: ['rewards', 'invite'], queryFn: fetchInvite });
}

/** The link a friend opens: the registration screen with the code filled in. */
export function inviteLink(origin: string, code: string): string {
  return `${origin}/signIn?invite=${encodeURIComponent(code)}`;
}
