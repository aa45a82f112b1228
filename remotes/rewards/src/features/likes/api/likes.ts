import { api, unwrap } from '@cw/shared-state/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

type Lang = 'zh-CN' | 'zh-TW' | 'en' | 'es';

export function fetchLikes(lang: Lang) {
  return unwrap(api.GET('/api/rewards/likes', { params: { query: { lang } } }));
}
export type LikesStatus = Awaited<ReturnType<typeof fetchLikes>>;
export type Draw = LikesStatus['draws'][number];

export function fetchLotteryDay(day: string) {
  return unwrap(api.GET('/api/rewards/lottery/{day}', { params: { path: { day } } }));
}
export type LotteryDay = Awaited<ReturnType<typeof fetchLotteryDay>>;

const likesKey = ['rewards', 'likes'] as const;

export function useLikes(lang: Lang) {
  return useQuery({ queryKey: [...likesKey, lang], queryFn: () => fetchLikes(lang) });
}

export function useLikeMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.PUT('/api/rewards/likes/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: likesKey }),
  });
}

/** A client seed the browser picks at random (16 bytes, hex): the server cannot choose it. */
export function randomClientSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function putClientSeed(clientSeed: string, commitment: string) {
  return unwrap(api.PUT('/api/rewards/lottery/client-seed', { body: { clientSeed, commitment } }));
}

export function useClientSeedMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { clientSeed: string; commitment: string }) =>
      putClientSeed(input.clientSeed, input.commitment),
    onSettled: () => client.invalidateQueries({ queryKey: likesKey }),
  });
}

/**
 * A draw. With no client seed yet, the browser first sets a random one against the next commitment
 * it was shown, so the server's seed is fixed before the client seed exists (issue 36 item 15).
 */
export function useDrawMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (fairness: LikesStatus['fairness']) => {
      if (!fairness.active) await putClientSeed(randomClientSeed(), fairness.nextCommitment);
      return unwrap(api.POST('/api/rewards/draws'));
    },
    onSettled: () => client.invalidateQueries({ queryKey: likesKey }),
  });
}
