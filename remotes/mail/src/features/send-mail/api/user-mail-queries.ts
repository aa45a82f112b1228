import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchMail, fetchMails, resendMail, sendMail, type UserMail } from './user-mail.ts';

const mailsKey = ['mail', 'user-mails'] as const;
const POLL_QUEUED_MS = 2000;

const stillQueued = (mails: UserMail[]) => mails.some((m) => m.state === 'queued');

/** The records, newest first; polled while one is still queued, so "sent" or "failed" shows by itself. */
export function useMails() {
  return useInfiniteQuery({
    queryKey: mailsKey,
    queryFn: ({ pageParam }) => fetchMails(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      stillQueued(query.state.data?.pages.flatMap((p) => p.items) ?? []) ? POLL_QUEUED_MS : false,
  });
}

export function useMail(id: string) {
  return useQuery({
    queryKey: [...mailsKey, id],
    queryFn: () => fetchMail(id),
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.state === 'queued' ? POLL_QUEUED_MS : false),
  });
}

export function useSendMailMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendMail, onSuccess: () => client.invalidateQueries({ queryKey: mailsKey }) });
}

export function useResendMailMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resendMail, onSuccess: () => client.invalidateQueries({ queryKey: mailsKey }) });
}
