import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { isEmailAddress } from '../../../lib/email.ts';

export const CONTENT_MAX = 2000;

export interface MessageValues {
  phoneCountry: string;
  phone: string;
  email: string;
  content: string;
}

/** The specification's rules: a phone or an e-mail is required; a phone needs its area code; an e-mail must be valid. */
export function contactProblem(v: MessageValues): 'contact' | 'areaCode' | 'phone' | 'email' | 'content' | null {
  const phone = v.phone.trim();
  const email = v.email.trim();
  if (phone === '' && email === '') return 'contact';
  if (phone !== '' && v.phoneCountry === '') return 'areaCode';
  if (phone !== '' && !isValidPhoneNumber(phone, v.phoneCountry as never)) return 'phone';
  if (email !== '' && !isEmailAddress(email)) return 'email';
  if (v.content.trim() === '') return 'content';
  return null;
}
