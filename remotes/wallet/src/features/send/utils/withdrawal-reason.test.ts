import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { reasonView } from './withdrawal-reason.ts';

function lookup(bundle: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], bundle);
}

describe('reasonView', () => {
  it("translates the signer's machine reason and labels it as a failure", () => {
    const view = reasonView('transfer_failed', 'transaction reverted on chain');
    expect(view).toEqual({
      labelKey: 'withdrawDetail.reasonFailed',
      textKey: 'withdrawDetail.machineReason.txReverted',
      text: 'transaction reverted on chain',
    });
    expect(typeof lookup(en, view?.textKey ?? '')).toBe('string');
    expect(typeof lookup(en, view?.labelKey ?? '')).toBe('string');
  });

  it("keeps an operator's free text as written, under the rejection label", () => {
    expect(reasonView('review_rejected', '  Address on a sanctions list ')).toEqual({
      labelKey: 'withdrawDetail.reasonRejected',
      textKey: null,
      text: 'Address on a sanctions list',
    });
  });

  it('shows nothing without a reason', () => {
    expect(reasonView('in_review', null)).toBeNull();
    expect(reasonView('review_rejected', '  ')).toBeNull();
  });
});
