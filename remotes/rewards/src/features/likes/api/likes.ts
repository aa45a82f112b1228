import { api, unwrap } from '@cw/shared-state/api';
import { canonicalPrizeTable, prizeTableHash } from '@cw/shared-state/lottery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rememberSeed } from '../lib/seed-records.ts';

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

/** The hash a seed pair is bound to: SHA-256 of the canonical prize table shown. */
export function tableHashOf(prizes: LikesStatus['prizes']): Promise<string> {
  return prizeTableHash(canonicalPrizeTable(prizes));
}

interface SeedChoice {
  userId: string;
  clientSeed: string;
  commitment: string;
  prizes: LikesStatus['prizes'];
}

/**
 * Sets a client seed against the commitment and the prize table shown, and keeps the pair in this
 * browser once accepted: verification later checks draws against it, not only against what the
 * server returns with them (review of issue 36 item 15).
 */
async function putClientSeed(choice: SeedChoice) {
  const hash = await tableHashOf(choice.prizes);
  const changed = await unwrap(
    api.PUT('/api/rewards/lottery/client-seed', {
      body: { clientSeed: choice.clientSeed, commitment: choice.commitment, prizeTableHash: hash },
    }),
  );
  rememberSeed(choice.userId, { commitment: choice.commitment, clientSeed: choice.clientSeed, prizeTableHash: hash });
  return changed;
}

export function useClientSeedMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: putClientSeed,
    onSettled: () => client.invalidateQueries({ queryKey: likesKey }),
  });
}

/**
 * A draw. With no client seed yet, or one set against other prizes than those shown now, the browser
 * first sets a random one against the next commitment it was shown, so the server's seed is fixed
 * before the client seed exists (issue 36 item 15) and the pair names the prizes the user sees.
 */
export function useDrawMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (data: Pick<LikesStatus, 'fairness' | 'prizes'>) => {
      const { fairness, prizes } = data;
      if (!fairness.active || fairness.active.prizeTableHash !== (await tableHashOf(prizes))) {
        await putClientSeed({
          userId: fairness.userId,
          clientSeed: randomClientSeed(),
          commitment: fairness.nextCommitment,
          prizes,
        });
      }
      return unwrap(api.POST('/api/rewards/draws'));
    },
    onSettled: () => client.invalidateQueries({ queryKey: likesKey }),
  });
}
