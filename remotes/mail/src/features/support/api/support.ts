import { api, unwrap } from '@cw/shared-state/api';
import { currentLanguage } from '@cw/shared-state/i18n';
import type { MessageValues } from '../utils/contact.ts';

/** Only what the writer filled in is sent (and the page's language, for the answer's e-mail); the server checks the same rules. */
export function leaveMessage(values: MessageValues & { uploadIds: string[] }) {
  const phone = values.phone.trim();
  const email = values.email.trim();
  return unwrap(
    api.POST('/api/support/messages', {
      body: {
        ...(phone ? { phone, phoneCountry: values.phoneCountry } : {}),
        ...(email ? { email } : {}),
        content: values.content.trim(),
        language: currentLanguage(),
        ...(values.uploadIds.length > 0 ? { uploadIds: values.uploadIds } : {}),
      },
    }),
  );
}
