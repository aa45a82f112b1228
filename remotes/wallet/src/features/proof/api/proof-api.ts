import { api, unwrap } from '@cw/shared-state/api';
import { useQuery } from '@tanstack/react-query';

export const fetchRoots = () => unwrap(api.GET('/api/por'));
export const fetchStatus = () => unwrap(api.GET('/api/por/status'));
export const fetchProof = () => unwrap(api.GET('/api/por/proof'));
export type PorRoots = Awaited<ReturnType<typeof fetchRoots>>;
export type PorStatus = Awaited<ReturnType<typeof fetchStatus>>;
export type Proof = Awaited<ReturnType<typeof fetchProof>>;

export const usePorRoots = () => useQuery({ queryKey: ['wallet', 'por', 'roots'], queryFn: fetchRoots });
/** Whether the user is in the latest snapshot: asked first, so a new account sees "not yet", not an error. */
export const usePorStatus = () => useQuery({ queryKey: ['wallet', 'por', 'status'], queryFn: fetchStatus });
export const useProof = (enabled: boolean) =>
  useQuery({ queryKey: ['wallet', 'por', 'proof'], queryFn: fetchProof, retry: false, enabled });
