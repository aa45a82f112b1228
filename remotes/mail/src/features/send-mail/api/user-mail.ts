import { api, unwrap } from '@cw/shared-state/api';

export const MAIL_PAGE_SIZE = 20;

export function sendMail(body: { recipients: string[]; subject: string; body: string }) {
  return unwrap(api.POST('/api/mail/messages', { body }));
}

export function resendMail(id: string) {
  return unwrap(api.POST('/api/mail/messages/{id}/resend', { params: { path: { id } } }));
}

export function fetchMail(id: string) {
  return unwrap(api.GET('/api/mail/messages/{id}', { params: { path: { id } } }));
}

export function fetchMails(cursor?: string) {
  return unwrap(api.GET('/api/mail/messages', { params: { query: { cursor, limit: MAIL_PAGE_SIZE } } }));
}

export type UserMail = Awaited<ReturnType<typeof fetchMail>>;
