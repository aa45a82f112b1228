import { describe, expect, it } from 'vitest';
import { EMPTY, problems, toRequest } from './method-form.ts';

describe('add payment method form', () => {
  it('names each bad field of an Indian bank account with the shared rules', () => {
    expect(
      problems('bank_in', { ...EMPTY, accountNumber: '12345678', confirmAccountNumber: '1', ifsc: 'hdfc1000001' }),
    ).toEqual({
      accountNumber: 'format',
      confirmAccountNumber: 'mismatch',
      ifsc: 'format',
      bankName: 'required',
      holder: 'required',
      identityNumber: 'required',
    });
    const good = {
      ...EMPTY,
      accountNumber: '1234 5678 9012',
      confirmAccountNumber: '123456789012',
      ifsc: 'hdfc0000001',
      bankName: 'HDFC Bank',
      holder: 'Asha Kumari',
      identityType: 'pan' as const,
      identityNumber: 'abcde1234f',
    };
    expect(problems('bank_in', good)).toEqual({});
    expect(toRequest('bank_in', good)).toMatchObject({ kind: 'bank_in', ifsc: 'hdfc0000001' });
  });

  it('checks a PIX key by its type, and the chat-app handle', () => {
    expect(problems('pix', { ...EMPTY, keyType: 'cpf', key: '529.982.247-25', holder: 'Ana' })).toEqual({});
    expect(problems('pix', { ...EMPTY, keyType: 'cpf', key: '529.982.247-24', holder: 'Ana' })).toEqual({ key: 'cpf' });
    expect(problems('chat_app', { ...EMPTY, handle: 'x' })).toEqual({ handle: 'format' });
  });
});
