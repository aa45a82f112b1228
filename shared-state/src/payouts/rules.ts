import { cnpj, cpf } from 'cpf-cnpj-validator';
import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { verhoeffValid } from './verhoeff.ts';

/**
 * Payout details, one rule set for the forms and the server (like the password rules). Each rule
 * returns null when the value is good, else the name of the broken rule, which both sides translate
 * (`payouts.<field>.<rule>`). The server also checks an IFSC against the `ifsc` package's bank list.
 */
export type Rule = string | null;

/** Bank account: 9 to 18 digits (the specification), entered twice. */
export function bankAccountRule(account: string): Rule {
  if (account === '') return 'required';
  return /^\d{9,18}$/.test(account) ? null : 'format';
}

export function confirmAccountRule(confirm: string, account: string): Rule {
  if (confirm === '') return 'required';
  return confirm === account ? null : 'mismatch';
}

/** IFSC branch code: 4 letters, then 0, then 6 letters or digits (the specification). */
export function ifscShapeRule(code: string): Rule {
  if (code === '') return 'required';
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(code) ? null : 'format';
}

/** A name as a bank writes it: 2 to 100 characters, letters (any script), spaces, dots, hyphens. */
export function nameRule(name: string): Rule {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  return /^[\p{L}\p{M}][\p{L}\p{M} .'-]{1,99}$/u.test(trimmed) ? null : 'format';
}

export const identityTypes = ['pan', 'aadhaar'] as const;
export type IdentityType = (typeof identityTypes)[number];

/** PAN: 5 letters, 4 digits, a letter. Aadhaar: 12 digits, not starting with 0 or 1, Verhoeff check. */
export function identityRule(type: IdentityType, value: string): Rule {
  if (value === '') return 'required';
  if (type === 'pan') return /^[A-Z]{5}\d{4}[A-Z]$/.test(value) ? null : 'pan';
  return /^[2-9]\d{11}$/.test(value) && verhoeffValid(value) ? null : 'aadhaar';
}

export const pixKeyTypes = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const;
export type PixKeyType = (typeof pixKeyTypes)[number];

/** A PIX key of its type: CPF/CNPJ with check digits (the 2026 alphanumeric CNPJ too), e-mail, +55 phone, random key (UUID). */
export function pixKeyRule(type: PixKeyType, key: string): Rule {
  if (key === '') return 'required';
  switch (type) {
    case 'cpf':
      return cpf.isValid(key) ? null : 'cpf';
    case 'cnpj':
      return cnpj.isValid(key) ? null : 'cnpj';
    case 'email':
      return key.length <= 77 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key) ? null : 'email';
    case 'phone':
      return key.startsWith('+55') && isValidPhoneNumber(key) ? null : 'phone';
    case 'random':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(key) ? null : 'random';
  }
}

/** A UPI id: handle@bank. */
export function upiRule(id: string): Rule {
  if (id === '') return 'required';
  return /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/.test(id) ? null : 'format';
}

export const chatApps = ['whatsapp', 'telegram', 'line', 'wechat'] as const;
export type ChatApp = (typeof chatApps)[number];

/** The chat-app payment method: the app and the user's handle or number there. */
export function chatHandleRule(handle: string): Rule {
  const trimmed = handle.trim();
  if (trimmed === '') return 'required';
  return /^[+@]?[\p{L}\p{N}._-]{2,64}$/u.test(trimmed) ? null : 'format';
}

/** What a screen shows of a secret: the last 4 characters. */
export function maskTail(value: string, shown = 4): string {
  return value.length <= shown ? '•'.repeat(value.length) : `•••• ${value.slice(-shown)}`;
}
