import { api, type paths, unwrap } from '@cw/shared-state/api';

/** The withdrawal review routes (/api/ops/withdrawals…) as the console's Withdrawals page uses them. */
export const withdrawalsApi = {
  queue: (query: ReviewQuery) => unwrap(api.GET('/api/ops/withdrawals/review', { params: { query } })),
  approve: (id: string) => unwrap(api.POST('/api/ops/withdrawals/{id}/approve', { params: { path: { id } } })),
  reject: (id: string, reason: string) =>
    unwrap(api.POST('/api/ops/withdrawals/{id}/reject', { params: { path: { id } }, body: { reason } })),
  secondLook: (id: string, reason: string) =>
    unwrap(api.POST('/api/ops/withdrawals/{id}/second-look', { params: { path: { id } }, body: { reason } })),
  bulkApprove: (ids: string[]) => unwrap(api.POST('/api/ops/withdrawals/bulk-approve', { body: { ids } })),
};

export type ReviewQuery = NonNullable<paths['/api/ops/withdrawals/review']['get']['parameters']['query']>;
export type ReviewPage = Awaited<ReturnType<typeof withdrawalsApi.queue>>;
export type ReviewItem = ReviewPage['items'][number];
export type BulkResult = Awaited<ReturnType<typeof withdrawalsApi.bulkApprove>>['results'][number];
