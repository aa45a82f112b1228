export { useKnownSession } from './known-session.ts';
export { RETURN_TO_STORAGE_KEY, rememberReturnTo, takeReturnTo } from './return-to.ts';
export {
  onSignedOut,
  onUserChanged,
  type SessionState,
  type SessionStatus,
  useSession,
  useUserId,
} from './server-session.ts';
export {
  DEFAULT_USER_STATE,
  type PersistedState,
  USER_STORAGE_KEY,
  type UserState,
  useUserStore,
} from './user-store.ts';
