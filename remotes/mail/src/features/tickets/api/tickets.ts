import { api, unwrap } from '@cw/shared-state/api';

export const TICKET_PAGE_SIZE = 20;
export const DESCRIPTION_MAX = 2000;

export function fetchTickets(cursor?: string) {
  return unwrap(api.GET('/api/tickets', { params: { query: { cursor, limit: TICKET_PAGE_SIZE } } }));
}

export function fetchTicket(id: string) {
  return unwrap(api.GET('/api/tickets/{id}', { params: { path: { id } } }));
}

export function openTicket(body: { email: string; description: string; txRef?: string; uploadIds: string[] }) {
  return unwrap(api.POST('/api/tickets', { body }));
}

export function followUp(id: string, body: { text: string; uploadIds: string[] }) {
  return unwrap(api.POST('/api/tickets/{id}/messages', { params: { path: { id } }, body }));
}

export type Ticket = Awaited<ReturnType<typeof fetchTicket>>;
export type TicketSummary = Awaited<ReturnType<typeof fetchTickets>>['items'][number];
export type TicketMessage = Ticket['messages'][number];
