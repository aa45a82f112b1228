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

export function useDrawMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/rewards/draws')),
    onSettled: () => client.invalidateQueries({ queryKey: likesKey }),
  });
}
