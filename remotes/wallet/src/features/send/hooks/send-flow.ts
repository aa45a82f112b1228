import { create } from 'zustand';

/** What the send screen decided, carried to the confirmation and verification screens. */
export interface SendDraft {
  kind: 'withdrawal' | 'send';
  coin: string;
  /** Withdrawal network. */
  network: string;
  /** Withdrawal address, or the recipient (e-mail or deposit address) of a send. */
  target: string;
  recipientKind?: 'email' | 'address';
  amountMinor: string;
  feeMinor: string;
  arrivalMinor: string;
  /** One key per confirmed order, so a retried submit has exactly one effect. */
  idempotencyKey: string;
}

interface SendFlowState {
  draft: SendDraft | null;
  /**
   * The fund password checked on the pwd screen, sent with the order. Held in
   * memory only (this store has no persistence) and dropped with the draft.
   */
  fundPassword: string | null;
  start: (draft: Omit<SendDraft, 'idempotencyKey'>) => void;
  setFundPassword: (value: string) => void;
  clear: () => void;
}

export const useSendFlow = create<SendFlowState>()((set) => ({
  draft: null,
  fundPassword: null,
  start: (draft) => set({ draft: { ...draft, idempotencyKey: crypto.randomUUID() }, fundPassword: null }),
  setFundPassword: (value) => set({ fundPassword: value }),
  clear: () => set({ draft: null, fundPassword: null }),
}));
