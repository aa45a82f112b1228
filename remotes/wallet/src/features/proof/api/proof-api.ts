import { api, unwrap } from '@cw/shared-state/api';
import { useQuery } from '@tanstack/react-query';

export const fetchRoots = () => unwrap(api.GET('/api/por'));
export const fetchProof = () => unwrap(api.GET('/api/por/proof'));
export type PorRoots = Awaited<ReturnType<typeof fetchRoots>>;
export type Proof = Awaited<ReturnType<typeof fetchProof>>;

export const usePorRoots = () => useQuery({ queryKey: ['wallet', 'por', 'roots'], queryFn: fetchRoots });
export const useProof = () => useQuery({ queryKey: ['wallet', 'por', 'proof'], queryFn: fetchProof, retry: false });
