import { api, type paths, unwrap } from '@cw/shared-state/api';

/** The operator API (/api/ops/*) as the console uses it; the ops_sid cookie rides along. */
export const opsApi = {
  session: () => unwrap(api.GET('/api/ops/session')),
  signIn: (name: string, password: string, totpCode: string) =>
    unwrap(api.POST('/api/ops/session', { body: { name, password, totpCode } })),
  enrolStart: (token: string) => unwrap(api.POST('/api/ops/enrolment/start', { body: { token } })),
  enrolFinish: (token: string, password: string, totpCode: string) =>
    unwrap(api.POST('/api/ops/enrolment/finish', { body: { token, password, totpCode } })),
  operators: () => unwrap(api.GET('/api/ops/operators')),
  addOperator: (name: string, roles: Role[]) => unwrap(api.POST('/api/ops/operators', { body: { name, roles } })),
  setRoles: (id: string, roles: Role[]) =>
    unwrap(api.PUT('/api/ops/operators/{id}/roles', { params: { path: { id } }, body: { roles } })),
  disableOperator: (id: string) => unwrap(api.POST('/api/ops/operators/{id}/disable', { params: { path: { id } } })),
  reenrolOperator: (id: string) => unwrap(api.POST('/api/ops/operators/{id}/enrolment', { params: { path: { id } } })),
  endOperatorSessions: (id: string) =>
    unwrap(api.POST('/api/ops/operators/{id}/sessions/end', { params: { path: { id } } })),
  endUserSessions: (id: string) => unwrap(api.POST('/api/ops/users/{id}/sessions/end', { params: { path: { id } } })),
  auditChain: () => unwrap(api.GET('/api/ops/audit/chain')),
  auditEvents: (query: AuditQuery) => unwrap(api.GET('/api/ops/audit/events', { params: { query } })),
  signOut: () => unwrap(api.DELETE('/api/ops/session')),
  announcements: () => unwrap(api.GET('/api/ops/announcements')),
  publish: (body: AnnouncementInput) => unwrap(api.POST('/api/ops/announcements', { body })),
  preview: (bodyMd: string) => unwrap(api.POST('/api/ops/announcements/preview', { body: { bodyMd } })),
  withdraw: (id: string) => unwrap(api.POST('/api/ops/announcements/{id}/withdraw', { params: { path: { id } } })),
  supportMessages: () => unwrap(api.GET('/api/ops/support/messages', { params: { query: { state: 'open' } } })),
  answerMessage: (id: string, answer: string, uploadIds: string[]) =>
    unwrap(
      api.POST('/api/ops/support/messages/{id}/answer', { params: { path: { id } }, body: { answer, uploadIds } }),
    ),
  tickets: () => unwrap(api.GET('/api/ops/tickets', { params: { query: { state: 'pending_reply' } } })),
  ticket: (id: string) => unwrap(api.GET('/api/ops/tickets/{id}', { params: { path: { id } } })),
  replyTicket: (id: string, text: string, uploadIds: string[]) =>
    unwrap(api.POST('/api/ops/tickets/{id}/messages', { params: { path: { id } }, body: { text, uploadIds } })),
  chats: () => unwrap(api.GET('/api/ops/chats')),
  chatHistory: (id: string) =>
    unwrap(api.GET('/api/ops/chats/{id}/messages', { params: { path: { id }, query: { limit: 50 } } })),
  chatSend: (id: string, body: { clientId: string; text: string; uploadId?: string }) =>
    unwrap(api.POST('/api/ops/chats/{id}/messages', { params: { path: { id } }, body })),
  chatTyping: (id: string) => unwrap(api.POST('/api/ops/chats/{id}/typing', { params: { path: { id } } })),
  chatRead: (id: string, upTo: string) =>
    unwrap(api.POST('/api/ops/chats/{id}/read', { params: { path: { id } }, body: { upTo } })),
  /** One picture for a reply: multipart to /api/ops/uploads (checked and re-encoded by the server). */
  upload: async (file: File, place: 'ticket' | 'chat' | 'message'): Promise<{ id: string; name: string }> => {
    const body = new FormData();
    body.append('file', file, file.name);
    const res = await fetch(`/api/ops/uploads?place=${place}`, { method: 'POST', body, credentials: 'same-origin' });
    const json = (await res.json()) as { id: string; name: string; message?: string };
    if (!res.ok) throw Object.assign(new Error(json.message ?? 'Upload failed'), json);
    return json;
  },
};

export type AnnouncementInput = NonNullable<
  paths['/api/ops/announcements']['post']['requestBody']
>['content']['application/json'];
export type SupportMessage = Awaited<ReturnType<typeof opsApi.supportMessages>>['items'][number];
export type OpsTicket = Awaited<ReturnType<typeof opsApi.ticket>>;
export type OpsTicketSummary = Awaited<ReturnType<typeof opsApi.tickets>>['items'][number];
export type OpsChat = Awaited<ReturnType<typeof opsApi.chats>>['items'][number];
export type OpsChatMessage = Awaited<ReturnType<typeof opsApi.chatHistory>>['items'][number];
export type OpsAnnouncement = Awaited<ReturnType<typeof opsApi.announcements>>['items'][number];

export const ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type AuditQuery = NonNullable<paths['/api/ops/audit/events']['get']['parameters']['query']>;
export type OpsOperator = Awaited<ReturnType<typeof opsApi.operators>>['items'][number];
export type AuditEvent = Awaited<ReturnType<typeof opsApi.auditEvents>>['items'][number];
export type ChainState = Awaited<ReturnType<typeof opsApi.auditChain>>;

/** The one-time enrolment link, made from this console's own address (the token rides in the fragment). */
export function enrolmentLinkOf(token: string): string {
  return `${window.location.origin}${window.location.pathname}#enrol=${token}`;
}

export const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const CATEGORIES = ['news', 'maintenance', 'listing', 'activity'] as const;

/** The server's message for a refused request (the console is for operators: English is fine). */
export function problemOf(error: unknown): string {
  const e = error as { message?: string; details?: unknown };
  const details = Array.isArray(e.details)
    ? ` (${e.details.map((d: { field?: string; message?: string }) => `${d.field}: ${d.message}`).join('; ')})`
    : '';
  return `${e.message ?? 'Request failed'}${details}`;
}
