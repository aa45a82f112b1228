import { api, unwrap } from '@cw/shared-state/api';
import { useQuery } from '@tanstack/react-query';

/** Which second factors the account has: a sell asks for one of them (the server answers FACTOR_REQUIRED otherwise). */
export interface SecondFactor {
  totp: boolean;
  passkeys: number;
}

export const useSecondFactor = () =>
  useQuery({
    queryKey: ['me', 'security', 'factors'],
    queryFn: async (): Promise<SecondFactor> => {
      const status = await unwrap(api.GET('/api/me/security'));
      return { totp: status.totp, passkeys: status.passkeys };
    },
    staleTime: 30_000,
  });
