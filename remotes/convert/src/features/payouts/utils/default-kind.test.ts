import { describe, expect, it } from 'vitest';
import { defaultPayoutKind } from './default-kind.ts';
import { methodKinds } from './method-form.ts';

describe("add payout method opens on the account country's kind (issue 30 item 8)", () => {
  it('a Brazilian user gets PIX first, an Indian user the bank account', () => {
    expect(defaultPayoutKind('BR')).toBe('pix');
    expect(defaultPayoutKind('IN')).toBe('bank_in');
    expect(defaultPayoutKind('br')).toBe('pix');
  });

  it('anywhere else (or unknown) keeps the first form, and always a kind the form has', () => {
    for (const country of ['ES', '', null, undefined, 'XX']) {
      const kind = defaultPayoutKind(country);
      expect(kind).toBe('bank_in');
      expect(methodKinds).toContain(kind);
    }
  });
});
