import type { MethodKind } from './method-form.ts';

/**
 * The payout kind "add payout method" opens on, by the account's country of residence: what a user
 * there pays out to first (the server's ramp rules, server/src/modules/ramp/rules.ts: PIX in Brazil,
 * an IMPS bank account in India). Anywhere else the ramp is not offered; the Indian bank form stays
 * the default, as before.
 */
const BY_COUNTRY: Readonly<Record<string, MethodKind>> = { BR: 'pix', IN: 'bank_in' };

export function defaultPayoutKind(country: string | null | undefined): MethodKind {
  return BY_COUNTRY[(country ?? '').toUpperCase()] ?? 'bank_in';
}
