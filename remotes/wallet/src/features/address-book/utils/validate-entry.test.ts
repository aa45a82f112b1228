import { describe, expect, it } from 'vitest';
import { validateEntry } from './validate-entry.ts';

const good = {
  name: 'Cold wallet',
  walletType: 'personal',
  network: 'ethereum',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  remark: '',
};

describe('validateEntry', () => {
  it('accepts a complete entry', () => {
    expect(validateEntry(good)).toEqual({});
  });

  it('checks the address against the chosen network', () => {
    expect(validateEntry({ ...good, address: '0x123' }).address).toBe('ADDRESS_INVALID');
    expect(validateEntry({ ...good, network: 'tron' }).address).toBe('ADDRESS_INVALID');
    expect(
      validateEntry({ ...good, network: 'bitcoin', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }),
    ).toEqual({});
  });

  it('requires name, wallet type, network and address, and limits lengths', () => {
    expect(validateEntry({ name: ' ', walletType: '', network: '', address: '', remark: '' })).toEqual({
      name: 'required',
      walletType: 'required',
      network: 'required',
      address: 'required',
    });
    expect(validateEntry({ ...good, name: 'x'.repeat(41), remark: 'y'.repeat(101) })).toEqual({
      name: 'tooLong',
      remark: 'tooLong',
    });
  });
});
