import type { ChatMessage } from '../api/chat.ts';

/** A message this screen sent that the server has not confirmed yet (or refused). */
export interface PendingMessage {
  clientId: string;
  text: string;
  fileName?: string;
  uploadId?: string;
  status: 'sending' | 'failed';
}

/** Message ids are decimal bigints: compare them as such. */
export const idOrder = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/**
 * The conversation as shown: every known message once (history pages and live events overlap),
 * in id order, then what is still being sent (a pending message disappears once its clientId is seen).
 */
export function mergeConversation(
  sources: readonly (readonly ChatMessage[])[],
  pending: readonly PendingMessage[],
): { messages: ChatMessage[]; pending: PendingMessage[] } {
  const byId = new Map<string, ChatMessage>();
  for (const list of sources) for (const m of list) byId.set(m.id, m);
  const messages = [...byId.values()].sort((a, b) => idOrder(a.id, b.id));
  const confirmed = new Set(messages.map((m) => m.clientId));
  return { messages, pending: pending.filter((p) => !confirmed.has(p.clientId)) };
}

/** The newest id of a list, or null. */
export function lastId(messages: readonly ChatMessage[]): string | null {
  return messages.reduce<string | null>((max, m) => (max === null || idOrder(m.id, max) > 0 ? m.id : max), null);
}
