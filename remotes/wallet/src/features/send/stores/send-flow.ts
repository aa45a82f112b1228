import { create } from 'zustand';
import { createSend, createWithdrawal, factorFields, type Verification } from '../api/send.ts';

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

/**
 * The steps of a withdrawal or a transfer, in order: the form, the confirmation, the fund password
 * (only when the user has set one), the e-mail code, after which the flow places the order.
 */
export type SendStep = 'form' | 'affirm' | 'fund-password' | 'email-code';

export const SEND_STEP_PATHS: Record<SendStep, string> = {
  form: '/coinTopup/send',
  affirm: '/coinTopup/send/affirm',
  'fund-password': '/coinTopup/verification/pwd',
  'email-code': '/coinTopup/verification/email',
};

/** The step after `step` for a user with or without a fund password. */
export function nextStep(step: Exclude<SendStep, 'email-code'>, hasFundPassword: boolean): SendStep {
  if (step === 'form') return 'affirm';
  if (step === 'affirm') return hasFundPassword ? 'fund-password' : 'email-code';
  return 'email-code';
}

/**
 * Where a user who opened `step` must go instead, or null when the step may show: nothing is
 * drafted (back to the form), or the e-mail step comes before the fund password was checked.
 */
export function missingStep(
  step: SendStep,
  state: { draft: SendDraft | null; fundPassword: string | null },
  hasFundPassword: boolean,
): SendStep | null {
  if (step === 'form') return null;
  if (state.draft === null) return 'form';
  if (step === 'email-code' && hasFundPassword && state.fundPassword === null) return 'fund-password';
  return null;
}

/** The placed order's detail screen. */
function placeDraft(draft: SendDraft, verification: Verification): Promise<string> {
  if (draft.kind === 'withdrawal') {
    return createWithdrawal({
      coin: draft.coin,
      network: draft.network,
      address: draft.target,
      amountMinor: draft.amountMinor,
      idempotencyKey: draft.idempotencyKey,
      ...verification,
    }).then((order) => `/coinTopup/withdrawDeposit?type=withdrawal&id=${order.id}`);
  }
  return createSend({
    coin: draft.coin,
    recipient: draft.target,
    recipientKind: draft.recipientKind ?? 'email',
    ...(draft.recipientKind === 'address' && draft.network ? { network: draft.network } : {}),
    amountMinor: draft.amountMinor,
    idempotencyKey: draft.idempotencyKey,
    ...verification,
  }).then((order) => `/coinTopup/withdrawDeposit?type=send&id=${order.id}`);
}

interface SendFlowState {
  draft: SendDraft | null;
  /**
   * The fund password checked on the pwd screen, sent with the order. Held in
   * memory only (this store has no persistence) and dropped with the draft.
   */
  fundPassword: string | null;
  /** Set when the flow placed its order: the order's detail screen, where the e-mail step goes next. */
  placedPath: string | null;
  start: (draft: Omit<SendDraft, 'idempotencyKey'>) => void;
  setFundPassword: (value: string) => void;
  /**
   * The last step: places the drafted order with the e-mail code (and the checked fund password),
   * then ends the flow. Returns the path of the order's detail screen.
   */
  place: (emailCode: string, factorCode?: string, passkey?: Verification['passkey']) => Promise<string>;
  clear: () => void;
}

export const useSendFlow = create<SendFlowState>()((set, get) => ({
  draft: null,
  fundPassword: null,
  placedPath: null,
  start: (draft) =>
    set({ draft: { ...draft, idempotencyKey: crypto.randomUUID() }, fundPassword: null, placedPath: null }),
  setFundPassword: (value) => set({ fundPassword: value }),
  async place(emailCode, factorCode = '', passkey = undefined) {
    const { draft, fundPassword } = get();
    if (draft === null) throw new Error('no order drafted');
    const detailPath = await placeDraft(draft, {
      emailCode,
      ...(fundPassword ? { fundPassword } : {}),
      ...factorFields(factorCode),
      ...(passkey ? { passkey } : {}),
    });
    set({ draft: null, fundPassword: null, placedPath: detailPath });
    return detailPath;
  },
  clear: () => set({ draft: null, fundPassword: null, placedPath: null }),
}));
