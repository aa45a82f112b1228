import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchTicket, fetchTickets, followUp, openTicket, type Ticket } from './tickets.ts';

const ticketsKey = ['mail', 'tickets'] as const;
/** While a ticket waits for a reply, its screen looks for one now and then. */
const POLL_PENDING_MS = 15_000;

export function useTickets() {
  return useInfiniteQuery({
    queryKey: ticketsKey,
    queryFn: ({ pageParam }) => fetchTickets(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useTicket(id: string) {
  return useQuery({
    queryKey: [...ticketsKey, id],
    queryFn: () => fetchTicket(id),
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.state === 'pending_reply' ? POLL_PENDING_MS : false),
  });
}

export function useOpenTicketMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: openTicket, onSuccess: () => client.invalidateQueries({ queryKey: ticketsKey }) });
}

export function useFollowUpMutation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { text: string; uploadIds: string[] }) => followUp(id, body),
    onSuccess: (ticket: Ticket) => {
      client.setQueryData([...ticketsKey, id], ticket);
      void client.invalidateQueries({ queryKey: ticketsKey });
    },
  });
}
