import { beforeEach, describe, expect, it } from 'vitest';
import { missingStep, nextStep, SEND_STEP_PATHS, useSendFlow } from './send-flow.ts';

const draft = {
  kind: 'withdrawal' as const,
  coin: 'USDT',
  network: 'ethereum',
  target: '0x52908400098527886E0F7030069857D2E4169EE7',
  amountMinor: '20000000',
  feeMinor: '5000000',
  arrivalMinor: '15000000',
};

describe('send flow store', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    useSendFlow.getState().clear();
  });

  it('gives each started order its own idempotency key', () => {
    useSendFlow.getState().start(draft);
    const first = useSendFlow.getState().draft?.idempotencyKey;
    useSendFlow.getState().start(draft);
    const second = useSendFlow.getState().draft?.idempotencyKey;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
  });

  it('keeps the fund password in memory only and drops it with the draft', () => {
    useSendFlow.getState().start(draft);
    useSendFlow.getState().setFundPassword('123456');
    expect(useSendFlow.getState().fundPassword).toBe('123456');
    expect(JSON.stringify({ ...localStorage })).not.toContain('123456');
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('123456');
    useSendFlow.getState().start(draft);
    expect(useSendFlow.getState().fundPassword).toBeNull();
    useSendFlow.getState().setFundPassword('123456');
    useSendFlow.getState().clear();
    expect(useSendFlow.getState()).toMatchObject({ draft: null, fundPassword: null });
  });
});

describe('send flow steps', () => {
  it('goes form -> affirm -> fund password (when set) -> e-mail code', () => {
    expect(nextStep('form', true)).toBe('affirm');
    expect(nextStep('affirm', true)).toBe('fund-password');
    expect(nextStep('fund-password', true)).toBe('email-code');
    expect(nextStep('affirm', false)).toBe('email-code');
    expect(SEND_STEP_PATHS[nextStep('affirm', false)]).toBe('/coinTopup/verification/email');
  });

  it('sends a user who skipped a step back to it', () => {
    const drafted = { draft: { ...draft, idempotencyKey: 'k' }, fundPassword: null };
    expect(missingStep('affirm', { draft: null, fundPassword: null }, false)).toBe('form');
    expect(missingStep('email-code', drafted, true)).toBe('fund-password');
    expect(missingStep('email-code', drafted, false)).toBeNull();
    expect(missingStep('email-code', { ...drafted, fundPassword: '123456' }, true)).toBeNull();
  });

  it('places nothing without a draft', async () => {
    useSendFlow.getState().clear();
    await expect(useSendFlow.getState().place('123456')).rejects.toThrow(/no order drafted/);
  });
});
