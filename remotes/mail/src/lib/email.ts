/** An e-mail address as the server accepts it (local part, then dot-separated host labels). */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Whether `address` (already trimmed) is an e-mail address; the mail remote's forms check with this one rule. */
export function isEmailAddress(address: string): boolean {
  return EMAIL.test(address);
}
