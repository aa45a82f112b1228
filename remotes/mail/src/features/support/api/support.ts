import { api, unwrap } from '@cw/shared-state/api';
import type { MessageValues } from '../utils/contact.ts';

/** Only what the writer filled in is sent; the server checks the same rules. */
export function leaveMessage(values: MessageValues & { uploadIds: string[] }) {
  const phone = values.phone.trim();
  const email = values.email.trim();
  return unwrap(
    api.POST('/api/support/messages', {
      body: {
        ...(phone ? { phone, phoneCountry: values.phoneCountry } : {}),
        ...(email ? { email } : {}),
        content: values.content.trim(),
        ...(values.uploadIds.length > 0 ? { uploadIds: values.uploadIds } : {}),
      },
    }),
  );
}
