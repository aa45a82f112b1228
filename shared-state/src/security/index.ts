/**
 * @cw/shared-state/security: the locks on the signed-in account's outflows (hold after a security
 * change, freeze, deep-reorg hold) with their end, over the shared query client (issue 31).
 */
export {
  fetchOutflowLocks,
  LOCKS_REFRESH_MS,
  outflowLocksQueryKey,
  refreshOutflowLocks,
  type SecurityLock,
  type SecurityLocks,
  useOutflowLocks,
} from './use-outflow-locks.ts';
