import { api, unwrap } from '@cw/shared-state/api';
import type { Language } from '@cw/shared-state/i18n';

export const NOTICE_PAGE_SIZE = 20;

export function fetchAnnouncements(lang: Language, cursor?: string) {
  return unwrap(
    api.GET('/api/notices/announcements', { params: { query: { lang, cursor, limit: NOTICE_PAGE_SIZE } } }),
  );
}

export function fetchAnnouncement(id: string, lang: Language) {
  return unwrap(api.GET('/api/notices/announcements/{id}', { params: { path: { id }, query: { lang } } }));
}

export function fetchSystemNotices(cursor?: string) {
  return unwrap(api.GET('/api/notices/system', { params: { query: { cursor, limit: NOTICE_PAGE_SIZE } } }));
}

export function readSystemNotice(id: string) {
  return unwrap(api.POST('/api/notices/system/{id}/read', { params: { path: { id } } }));
}

export function readAllNotices(kind: 'announcements' | 'system' | 'all') {
  return unwrap(api.POST('/api/notices/read-all', { body: { kind } }));
}

export function fetchUnread() {
  return unwrap(api.GET('/api/notices/unread'));
}

export type AnnouncementSummary = Awaited<ReturnType<typeof fetchAnnouncements>>['items'][number];
export type AnnouncementDetail = Awaited<ReturnType<typeof fetchAnnouncement>>;
export type SystemNotice = Awaited<ReturnType<typeof fetchSystemNotices>>['items'][number];
