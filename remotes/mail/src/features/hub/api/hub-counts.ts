import { api, unwrap } from '@cw/shared-state/api';
import { useKnownSession } from '@cw/shared-state/session';
import { useQuery } from '@tanstack/react-query';

/** One page of tickets and of chat messages is what the counts look at; a larger count shows "50+". */
export const COUNT_PAGE = 50;

const fetchUnreadNotices = () => unwrap(api.GET('/api/notices/unread'));
const fetchTicketPage = () => unwrap(api.GET('/api/tickets', { params: { query: { limit: COUNT_PAGE } } }));
const fetchChatPage = () => unwrap(api.GET('/api/chat/messages', { params: { query: { limit: COUNT_PAGE } } }));

export type TicketPage = Awaited<ReturnType<typeof fetchTicketPage>>;
export type ChatPage = Awaited<ReturnType<typeof fetchChatPage>>;

/** Tickets support has answered and that wait for the user (state reply_received). */
export function answeredTickets(page: TicketPage): number {
  return page.items.filter((ticket) => ticket.state === 'reply_received').length;
}

/** Support's chat messages after the last one the user read. */
export function unreadChat(page: ChatPage): number {
  const readUpTo = BigInt(page.userReadId);
  return page.items.filter((m) => m.author === 'operator' && BigInt(m.id) > readUpTo).length;
}

/**
 * Unread counts per mail hub entry for a signed-in user (none for a visitor): unread notices, answered
 * tickets and unread chat messages, from the endpoints those screens read.
 */
export function useHubCounts(): Record<string, number> {
  const enabled = useKnownSession() === 'authenticated';
  const notices = useQuery({ queryKey: ['mail', 'hub', 'notices'], queryFn: fetchUnreadNotices, enabled });
  const tickets = useQuery({ queryKey: ['mail', 'hub', 'tickets'], queryFn: fetchTicketPage, enabled });
  const chat = useQuery({ queryKey: ['mail', 'hub', 'chat'], queryFn: fetchChatPage, enabled });
  if (!enabled) return {};
  return {
    notice: notices.data?.total ?? 0,
    support: tickets.data ? answeredTickets(tickets.data) : 0,
    chat: chat.data ? unreadChat(chat.data) : 0,
  };
}
