import { isEmailAddress } from '../../../lib/email.ts';
/** The server's limits, shown and checked before sending. */
export const RECIPIENTS_MAX = 5;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;

export type RecipientsProblem = { kind: 'required' } | { kind: 'tooMany' } | { kind: 'invalid'; address: string };

/** Addresses typed in one field, separated by commas, semicolons, spaces or new lines; duplicates once. */
export function parseRecipients(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;\s]+/)
        .map((a) => a.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export function recipientsProblem(recipients: string[]): RecipientsProblem | null {
  if (recipients.length === 0) return { kind: 'required' };
  if (recipients.length > RECIPIENTS_MAX) return { kind: 'tooMany' };
  const bad = recipients.find((a) => a.length > 254 || !isEmailAddress(a));
  return bad === undefined ? null : { kind: 'invalid', address: bad };
}
