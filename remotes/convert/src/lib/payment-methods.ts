import type { paths } from '@cw/shared-state/api';
import { api, unwrap } from '@cw/shared-state/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type NewPaymentMethod = paths['/api/payment-methods']['post']['requestBody']['content']['application/json'];

export function fetchPaymentMethods() {
  return unwrap(api.GET('/api/payment-methods'));
}
export type PaymentMethod = Awaited<ReturnType<typeof fetchPaymentMethods>>['items'][number];

const key = ['convert', 'payment-methods'] as const;

export function usePaymentMethods() {
  return useQuery({ queryKey: key, queryFn: fetchPaymentMethods });
}

export function useAddPaymentMethod() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewPaymentMethod) => unwrap(api.POST('/api/payment-methods', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useSetActive() {
  const client = useQueryClient();
  return useMutation({
    // Turning a method on takes the fund password (issue 38), off takes none.
    mutationFn: ({ id, active, fundPassword }: { id: string; active: boolean; fundPassword?: string }) =>
      unwrap(
        api.PUT('/api/payment-methods/{id}/active', {
          params: { path: { id } },
          body: { active, ...(fundPassword ? { fundPassword } : {}) },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** One line of what may be shown of a method (masked numbers, bank, holder). */
export function methodSummary(m: PaymentMethod, t: (key: string) => string): string {
  const s = m.shown;
  switch (m.kind) {
    case 'bank_in':
      return `${s.bankName ?? ''} ${s.account ?? ''} · ${s.ifsc ?? ''} · ${s.holder ?? ''}`;
    case 'pix':
      return `${t(`payouts.keyType.${s.keyType ?? 'cpf'}`)} ${s.key ?? ''} · ${s.holder ?? ''}`;
    case 'upi':
      return `${s.upiId ?? ''} · ${s.holder ?? ''}`;
    case 'chat_app':
      return `${t(`payouts.app.${s.app ?? 'whatsapp'}`)} ${s.handle ?? ''}`;
  }
}
