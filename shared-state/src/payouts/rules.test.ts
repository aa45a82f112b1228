import { describe, expect, it } from 'vitest';
import {
  bankAccountRule,
  chatHandleRule,
  confirmAccountRule,
  identityRule,
  ifscShapeRule,
  maskTail,
  nameRule,
  pixKeyRule,
  upiRule,
} from './rules.ts';
import { verhoeffValid } from './verhoeff.ts';

describe('payout rules', () => {
  it('bank account: 9 to 18 digits, entered twice the same', () => {
    expect(bankAccountRule('123456789')).toBeNull();
    expect(bankAccountRule('123456789012345678')).toBeNull();
    expect(bankAccountRule('12345678')).toBe('format');
    expect(bankAccountRule('1234567890123456789')).toBe('format');
    expect(bankAccountRule('12345678a')).toBe('format');
    expect(bankAccountRule('')).toBe('required');
    expect(confirmAccountRule('123456789', '123456789')).toBeNull();
    expect(confirmAccountRule('123456780', '123456789')).toBe('mismatch');
  });

  it('IFSC: 4 letters, 0, 6 letters or digits', () => {
    expect(ifscShapeRule('HDFC0000001')).toBeNull();
    expect(ifscShapeRule('SBIN0ABC123')).toBeNull();
    expect(ifscShapeRule('HDFC1000001')).toBe('format');
    expect(ifscShapeRule('HDF00000001')).toBe('format');
    expect(ifscShapeRule('hdfc0000001')).toBe('format');
  });

  it('PAN and Aadhaar (Verhoeff check digit)', () => {
    expect(identityRule('pan', 'ABCDE1234F')).toBeNull();
    expect(identityRule('pan', 'ABCD1234F')).toBe('pan');
    // Known Verhoeff examples: 2363 is valid (236 + check 3); a changed digit or a swap is caught.
    expect(verhoeffValid('2363')).toBe(true);
    expect(verhoeffValid('2364')).toBe(false);
    expect(verhoeffValid('3263')).toBe(false);
    expect(identityRule('aadhaar', '234123412346')).toBeNull();
    expect(identityRule('aadhaar', '234123412347')).toBe('aadhaar');
    expect(identityRule('aadhaar', '134123412346')).toBe('aadhaar');
  });

  it('PIX keys: CPF, CNPJ (also the 2026 alphanumeric form), e-mail, +55 phone, random key', () => {
    expect(pixKeyRule('cpf', '52998224725')).toBeNull();
    expect(pixKeyRule('cpf', '52998224724')).toBe('cpf');
    expect(pixKeyRule('cnpj', '11222333000181')).toBeNull();
    expect(pixKeyRule('cnpj', '12ABC34501DE35')).toBeNull();
    expect(pixKeyRule('cnpj', '11222333000182')).toBe('cnpj');
    expect(pixKeyRule('email', 'ana@example.com.br')).toBeNull();
    expect(pixKeyRule('email', 'ana@')).toBe('email');
    expect(pixKeyRule('phone', '+5511987654321')).toBeNull();
    expect(pixKeyRule('phone', '+14155552671')).toBe('phone');
    expect(pixKeyRule('random', '123e4567-e89b-42d3-a456-426614174000')).toBeNull();
    expect(pixKeyRule('random', 'not-a-key')).toBe('random');
  });

  it('UPI id, chat-app handle, holder name, masking', () => {
    expect(upiRule('asha.k@okhdfc')).toBeNull();
    expect(upiRule('asha.k')).toBe('format');
    expect(chatHandleRule('+919876543210')).toBeNull();
    expect(chatHandleRule('@asha_k')).toBeNull();
    expect(chatHandleRule('a')).toBe('format');
    expect(nameRule('Asha Kumari')).toBeNull();
    expect(nameRule('आशा कुमारी')).toBeNull();
    expect(nameRule('A1')).toBe('format');
    expect(maskTail('123456789012')).toBe('•••• 9012');
  });
});
