import {
  codeRule,
  confirmRule,
  countryRule,
  emailRule,
  fundPasswordRule,
  identifierRule,
  nicknameRule,
  passwordRule,
  requiredRule,
  usernameRule,
} from './rules.ts';

/** Rule checks keyed by form field, returning `<group>.<rule>` translation suffixes. */

const prefixed = (group: string, rule: string | null) => (rule === null ? null : `${group}.${rule}`);

export const checkUsername = (v: string) => prefixed('username', usernameRule(v));
export const checkNickname = (v: string) => prefixed('nickname', nicknameRule(v));
/** The picker only offers real codes; the form checks the shape, the server the list. */
const COUNTRY_SHAPE: Pick<ReadonlySet<string>, 'has'> = { has: (code) => /^[A-Z]{2}$/.test(code) };
export const checkCountry = (v: string) => prefixed('country', countryRule(v, COUNTRY_SHAPE));
/** A new login password: the rule, and (on the registration and reset forms) not the user name or e-mail. */
export const checkPassword = (v: string, values: Partial<Record<string, string>> = {}) =>
  prefixed(
    'password',
    passwordRule(v, {
      ...(values.username ? { username: values.username } : {}),
      ...(values.email ? { email: values.email } : {}),
    }),
  );
export const checkConfirm = (v: string, values: { password: string }) =>
  prefixed('confirm', confirmRule(v, values.password));
export const checkOldPassword = (v: string) => prefixed('oldPassword', requiredRule(v));
export const checkEmail = (v: string) => prefixed('email', emailRule(v));
export const checkCode = (v: string) => prefixed('code', codeRule(v));
/** An optional invite code: 8 characters of the code alphabet (no 0/O, 1/I/L); spaces and dashes are ignored. */
export const normalizeInvite = (v: string) => v.replace(/[\s-]/g, '').toUpperCase();
export const checkInvite = (v: string) =>
  v.trim() === '' || /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/.test(normalizeInvite(v)) ? null : 'invite.format';
export const checkIdentifier = (v: string) => prefixed('identifier', identifierRule(v));
export const checkLoginPassword = (v: string) => prefixed('password', requiredRule(v));
export const checkFundPassword = (v: string) => prefixed('fundPassword', fundPasswordRule(v));
export const checkFundConfirm = (v: string, values: { fundPassword: string }) =>
  prefixed('fundConfirm', confirmRule(v, values.fundPassword));
