import { isEmailAddress } from '../../../lib/email.ts';
/** The first thing wrong with a ticket or follow-up before it is sent, as a `tickets.problem.*` key. */
export function ticketProblem(
  values: { email?: string; description: string },
  pictures: { busy: boolean; failed: boolean },
): 'email' | 'description' | 'uploading' | 'pictureFailed' | null {
  if (values.email !== undefined && !isEmailAddress(values.email.trim())) return 'email';
  if (values.description.trim() === '') return 'description';
  if (pictures.busy) return 'uploading';
  if (pictures.failed) return 'pictureFailed';
  return null;
}
