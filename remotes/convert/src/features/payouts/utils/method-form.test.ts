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
      fundPassword: 'required',
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
      fundPassword: '739164',
    };
    expect(problems('bank_in', good)).toEqual({});
    expect(toRequest('bank_in', good)).toMatchObject({ kind: 'bank_in', ifsc: 'hdfc0000001', fundPassword: '739164' });
  });

  it('checks a PIX key by its type, and the chat-app handle', () => {
    const fp = { ...EMPTY, fundPassword: '739164' };
    expect(problems('pix', { ...fp, keyType: 'cpf', key: '529.982.247-25', holder: 'Ana' })).toEqual({});
    expect(problems('pix', { ...fp, keyType: 'cpf', key: '529.982.247-24', holder: 'Ana' })).toEqual({ key: 'cpf' });
    expect(problems('chat_app', { ...fp, handle: 'x' })).toEqual({ handle: 'format' });
  });

  it('asks every kind for the 6-digit fund password and sends it (issue 38: a stolen session cannot add a payout method)', () => {
    const chat = { ...EMPTY, handle: '@asha_k' };
    expect(problems('chat_app', chat)).toEqual({ fundPassword: 'required' });
    expect(problems('chat_app', { ...chat, fundPassword: '12345' })).toEqual({ fundPassword: 'format' });
    expect(toRequest('chat_app', { ...chat, fundPassword: '739164' })).toEqual({
      kind: 'chat_app',
      app: 'whatsapp',
      handle: '@asha_k',
      fundPassword: '739164',
    });
  });
});
