import { api, unwrap } from '@cw/shared-state/api';

export const CHAT_PAGE_SIZE = 30;
export const CHAT_TEXT_MAX = 2000;

export function fetchHistory(before?: string) {
  return unwrap(api.GET('/api/chat/messages', { params: { query: { before, limit: CHAT_PAGE_SIZE } } }));
}

export function sendChatMessage(body: { clientId: string; text: string; uploadId?: string }) {
  return unwrap(api.POST('/api/chat/messages', { body }));
}

export function sendTyping() {
  return unwrap(api.POST('/api/chat/typing'));
}

export function markChatRead(upTo: string) {
  return unwrap(api.POST('/api/chat/read', { body: { upTo } }));
}

export type ChatHistory = Awaited<ReturnType<typeof fetchHistory>>;
export type ChatMessage = ChatHistory['items'][number];
