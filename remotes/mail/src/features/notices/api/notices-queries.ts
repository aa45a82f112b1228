import { NOTICES_CHANGED_EVENT } from '@cw/shared-state/contracts';
import type { Language } from '@cw/shared-state/i18n';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchAnnouncement,
  fetchAnnouncements,
  fetchSystemNotices,
  fetchUnread,
  readAllNotices,
  readSystemNotice,
} from './notices.ts';

const noticesKey = ['mail', 'notices'] as const;
export const announcementsKey = (lang: Language) => [...noticesKey, 'announcements', lang] as const;
export const systemKey = [...noticesKey, 'system'] as const;
export const unreadKey = [...noticesKey, 'unread'] as const;

/** Tells the host (the mail tab's badge) that read marks changed. */
function announceChange() {
  window.dispatchEvent(new Event(NOTICES_CHANGED_EVENT));
}

export function useAnnouncements(lang: Language) {
  return useInfiniteQuery({
    queryKey: announcementsKey(lang),
    queryFn: ({ pageParam }) => fetchAnnouncements(lang, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useSystemNotices(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: systemKey,
    queryFn: ({ pageParam }) => fetchSystemNotices(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

export function useUnread(enabled: boolean) {
  return useQuery({ queryKey: unreadKey, queryFn: fetchUnread, enabled });
}

/** Opening an announcement marks it read on the server: the lists and the badge follow. */
export function useAnnouncement(id: string, lang: Language) {
  const client = useQueryClient();
  return useQuery({
    queryKey: [...noticesKey, 'announcement', id, lang],
    queryFn: async () => {
      const detail = await fetchAnnouncement(id, lang);
      void client.invalidateQueries({ queryKey: unreadKey });
      void client.invalidateQueries({ queryKey: announcementsKey(lang) });
      announceChange();
      return detail;
    },
    enabled: id !== '',
  });
}

function useInvalidateNotices() {
  const client = useQueryClient();
  return () => {
    announceChange();
    return client.invalidateQueries({ queryKey: noticesKey });
  };
}

export function useReadSystemNoticeMutation() {
  const invalidate = useInvalidateNotices();
  return useMutation({ mutationFn: readSystemNotice, onSuccess: invalidate });
}

export function useReadAllMutation() {
  const invalidate = useInvalidateNotices();
  return useMutation({ mutationFn: readAllNotices, onSuccess: invalidate });
}
