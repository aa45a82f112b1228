import {
  bankAccountRule,
  type ChatApp,
  chatHandleRule,
  confirmAccountRule,
  type IdentityType,
  identityRule,
  ifscShapeRule,
  nameRule,
  type PixKeyType,
  pixKeyRule,
  type Rule,
  upiRule,
} from '@cw/shared-state/payouts';
import type { NewPaymentMethod } from '../../../lib/payment-methods.ts';

export const methodKinds = ['bank_in', 'pix', 'upi', 'chat_app'] as const;
export type MethodKind = (typeof methodKinds)[number];

/** Every input of the add form, as typed (one state for all kinds: switching kind keeps nothing stale). */
export interface MethodValues {
  accountNumber: string;
  confirmAccountNumber: string;
  ifsc: string;
  holder: string;
  bankName: string;
  identityType: IdentityType;
  identityNumber: string;
  keyType: PixKeyType;
  key: string;
  upiId: string;
  app: ChatApp;
  handle: string;
  /** Every kind: a new method is where sold coins' money goes, so adding one takes the fund password. */
  fundPassword: string;
}

export const EMPTY: MethodValues = {
  accountNumber: '',
  confirmAccountNumber: '',
  ifsc: '',
  holder: '',
  bankName: '',
  identityType: 'pan',
  identityNumber: '',
  keyType: 'cpf',
  key: '',
  upiId: '',
  app: 'whatsapp',
  handle: '',
  fundPassword: '',
};

/** The text fields each kind shows, in order. */
export const FIELDS: Record<MethodKind, (keyof MethodValues)[]> = {
  bank_in: ['accountNumber', 'confirmAccountNumber', 'ifsc', 'bankName', 'holder', 'identityNumber'],
  pix: ['key', 'holder'],
  upi: ['upiId', 'holder'],
  chat_app: ['handle'],
};

const compact = (v: string) => v.replace(/[\s-]/g, '');

/** The same rules the server applies (the server also checks the IFSC against the bank list). */
export function problems(kind: MethodKind, v: MethodValues): Partial<Record<keyof MethodValues, string>> {
  const checks: [keyof MethodValues, Rule][] =
    kind === 'bank_in'
      ? [
          ['accountNumber', bankAccountRule(compact(v.accountNumber))],
          ['confirmAccountNumber', confirmAccountRule(compact(v.confirmAccountNumber), compact(v.accountNumber))],
          ['ifsc', ifscShapeRule(v.ifsc.trim().toUpperCase())],
          ['bankName', nameRule(v.bankName)],
          ['holder', nameRule(v.holder)],
          ['identityNumber', identityRule(v.identityType, compact(v.identityNumber).toUpperCase())],
        ]
      : kind === 'pix'
        ? [
            [
              'key',
              pixKeyRule(
                v.keyType,
                v.keyType === 'cpf' || v.keyType === 'cnpj' ? compact(v.key).replace(/[./]/g, '') : v.key.trim(),
              ),
            ],
            ['holder', nameRule(v.holder)],
          ]
        : kind === 'upi'
          ? [
              ['upiId', upiRule(v.upiId.trim())],
              ['holder', nameRule(v.holder)],
            ]
          : [['handle', chatHandleRule(v.handle)]];
  const fundPasswordRule: Rule = v.fundPassword === '' ? 'required' : /^\d{6}$/.test(v.fundPassword) ? null : 'format';
  return Object.fromEntries([...checks, ['fundPassword', fundPasswordRule]].filter(([, rule]) => rule !== null));
}

export function toRequest(kind: MethodKind, v: MethodValues): NewPaymentMethod {
  const { fundPassword } = v;
  switch (kind) {
    case 'bank_in':
      return {
        kind,
        accountNumber: v.accountNumber,
        confirmAccountNumber: v.confirmAccountNumber,
        ifsc: v.ifsc,
        holder: v.holder,
        bankName: v.bankName,
        identityType: v.identityType,
        identityNumber: v.identityNumber,
        fundPassword,
      };
    case 'pix':
      return { kind, keyType: v.keyType, key: v.key, holder: v.holder, fundPassword };
    case 'upi':
      return { kind, upiId: v.upiId, holder: v.holder, fundPassword };
    case 'chat_app':
      return { kind, app: v.app, handle: v.handle, fundPassword };
  }
}
