import { describe, expect, it } from 'vitest';
import { maxAmountMinor, validateSend } from './validate-send.ts';

const USDT_ETH = { minMinor: 10_000_000n, maxMinor: 1_000_000_000_000n, feeMinor: 5_000_000n };
const GOOD_ETH = '0x52908400098527886E0F7030069857D2E4169EE7';
const base = {
  mode: 'withdrawal' as const,
  network: 'ethereum',
  target: GOOD_ETH,
  amountText: '20',
  decimals: 6,
  availableMinor: 100_000_000n,
  limits: USDT_ETH,
};

describe('validateSend', () => {
  it('accepts a valid withdrawal and works out fee and arrival', () => {
    const check = validateSend(base);
    expect(check.target).toBeUndefined();
    expect(check.amount).toBeUndefined();
    expect(check).toMatchObject({ amountMinor: 20_000_000n, feeMinor: 5_000_000n, arrivalMinor: 15_000_000n });
  });

  it('refuses an address of another network or with a bad checksum', () => {
    expect(validateSend({ ...base, target: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }).target).toBe('ADDRESS_INVALID');
    expect(validateSend({ ...base, target: GOOD_ETH.replace('E7', 'e7') }).target).toBe('ADDRESS_INVALID');
    expect(validateSend({ ...base, target: ' ' }).target).toBe('send.targetRequired');
  });

  it('checks the amount against minimum, maximum and the available balance', () => {
    expect(validateSend({ ...base, amountText: '5' }).amount).toBe('AMOUNT_BELOW_MINIMUM');
    expect(validateSend({ ...base, amountText: '1000001' }).amount).toBe('AMOUNT_ABOVE_MAXIMUM');
    expect(validateSend({ ...base, amountText: '100.000001' }).amount).toBe('AMOUNT_EXCEEDS_AVAILABLE');
    expect(validateSend({ ...base, amountText: '100' }).amount).toBeUndefined();
    expect(validateSend({ ...base, amountText: '' }).amount).toBe('send.amountRequired');
    expect(validateSend({ ...base, amountText: '1.0000001' }).amount).toBe('send.amountRequired');
  });

  it('sends to a user by e-mail or deposit address, without fee or limits', () => {
    const send = { ...base, mode: 'send' as const, limits: undefined };
    expect(validateSend({ ...send, target: 'bob@example.com', amountText: '0.5' })).toMatchObject({
      recipientKind: 'email',
      feeMinor: 0n,
      arrivalMinor: 500_000n,
    });
    expect(validateSend({ ...send, target: 'bob@', amountText: '1' }).target).toBe('send.emailInvalid');
    expect(validateSend({ ...send, target: GOOD_ETH }).recipientKind).toBe('address');
    expect(validateSend({ ...send, target: 'not-an-address' }).target).toBe('ADDRESS_INVALID');
    expect(validateSend({ ...send, amountText: '101' }).amount).toBe('AMOUNT_EXCEEDS_AVAILABLE');
  });
});

describe('maxAmountMinor', () => {
  it('is the balance, capped by the withdrawal maximum', () => {
    expect(maxAmountMinor('withdrawal', 50n, 10n)).toBe(10n);
    expect(maxAmountMinor('withdrawal', 5n, 10n)).toBe(5n);
    expect(maxAmountMinor('send', 50n, 10n)).toBe(50n);
  });
});
