export { ApiError, type ClientErrorCode, fieldErrors, isApiError, retryAfterSeconds } from './api-error.ts';
export { api, type CodePurpose, type Me, onUnauthenticated, type SessionInfo } from './client.ts';
export { POLL_MAX_MS, POLL_MIN_MS, pollWithBackoff } from './poll-backoff.ts';
export { queryClient, shouldRetry } from './query-client.ts';
export type { paths } from './schema.d.ts';
export { unwrap } from './unwrap.ts';
