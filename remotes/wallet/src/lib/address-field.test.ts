import { describe, expect, it } from 'vitest';
import { addressFromScan } from './address-field.tsx';

describe('addressFromScan', () => {
  it('keeps a bare address', () => {
    expect(addressFromScan(' 0x52908400098527886E0F7030069857D2E4169EE7\n')).toBe(
      '0x52908400098527886E0F7030069857D2E4169EE7',
    );
    expect(addressFromScan('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toBe('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7');
  });

  it('strips payment URI schemes, chain ids and parameters', () => {
    expect(addressFromScan('ethereum:0x52908400098527886E0F7030069857D2E4169EE7@1?value=1e18')).toBe(
      '0x52908400098527886E0F7030069857D2E4169EE7',
    );
    expect(addressFromScan('bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.1')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
  });
});
