import {
  bankAccountRule,
  chatHandleRule,
  confirmAccountRule,
  identityRule,
  ifscShapeRule,
  maskTail,
  nameRule,
  pixKeyRule,
  type Rule,
  upiRule,
} from '@cw/shared-state/payouts';
import type { PaymentMethodKind } from '../../db/schema-payouts.ts';
import type { ErrorDetail } from '../../errors/app-error.ts';
import { ValidationError } from '../../errors/app-error.ts';
import { ifscBranches } from './ifsc-data.ts';
import type { NewPaymentMethod } from './schemas.ts';

/**
 * Checks a new payout method with the rules the forms use (@cw/shared-state/payouts) plus what only
 * the server knows (an IFSC must be a branch in the offline bank list, ifsc-data.ts), and splits
 * it into what may be shown and what is sealed.
 */

/** True when the IFSC names a known branch (bank code -> branch codes). */
export function knownIfsc(code: string): boolean {
  const list = ifscBranches()[code.slice(0, 4)];
  if (!list) return false;
  const branch = code.slice(5);
  return /^\d+$/.test(branch) ? list.includes(Number(branch)) : list.includes(branch);
}

export interface CheckedMethod {
  kind: PaymentMethodKind;
  shown: Record<string, string>;
  secret: Record<string, string> | null;
}

const digits = (v: string) => v.replace(/[\s-]/g, '');

function fail(details: ErrorDetail[]): never {
  throw new ValidationError('The payout details are not valid', details);
}

function collect(checks: [field: string, rule: Rule][]): void {
  const details = checks.flatMap(([field, rule]) => (rule ? [{ field, rule, message: rule }] : []));
  if (details.length > 0) fail(details);
}

export function checkMethod(input: NewPaymentMethod): CheckedMethod {
  switch (input.kind) {
    case 'bank_in': {
      const account = digits(input.accountNumber);
      const ifsc = input.ifsc.trim().toUpperCase();
      const identity = digits(input.identityNumber).toUpperCase();
      const ifscRule = ifscShapeRule(ifsc) ?? (knownIfsc(ifsc) ? null : 'unknown');
      collect([
        ['accountNumber', bankAccountRule(account)],
        ['confirmAccountNumber', confirmAccountRule(digits(input.confirmAccountNumber), account)],
        ['ifsc', ifscRule],
        ['holder', nameRule(input.holder)],
        ['bankName', nameRule(input.bankName)],
        ['identityNumber', identityRule(input.identityType, identity)],
      ]);
      return {
        kind: 'bank_in',
        shown: {
          account: maskTail(account),
          ifsc,
          holder: input.holder.trim(),
          bankName: input.bankName.trim(),
          identityType: input.identityType,
          identity: maskTail(identity),
        },
        secret: { accountNumber: account, identityNumber: identity },
      };
    }
    case 'pix': {
      const key =
        input.keyType === 'cpf' || input.keyType === 'cnpj' ? digits(input.key).replace(/[./]/g, '') : input.key.trim();
      collect([
        ['key', pixKeyRule(input.keyType, key)],
        ['holder', nameRule(input.holder)],
      ]);
      return {
        kind: 'pix',
        shown: { keyType: input.keyType, key: maskTail(key), holder: input.holder.trim() },
        secret: { key },
      };
    }
    case 'upi': {
      const id = input.upiId.trim();
      collect([
        ['upiId', upiRule(id)],
        ['holder', nameRule(input.holder)],
      ]);
      const [handle = '', bank = ''] = id.split('@');
      return {
        kind: 'upi',
        shown: { upiId: `${handle.slice(0, 2)}•••@${bank}`, holder: input.holder.trim() },
        secret: { upiId: id },
      };
    }
    case 'chat_app': {
      const handle = input.handle.trim();
      collect([['handle', chatHandleRule(handle)]]);
      return { kind: 'chat_app', shown: { app: input.app, handle }, secret: null };
    }
  }
}
