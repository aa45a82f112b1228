import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { toast } from '@cw/shared-ui/toast';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useCodeMessage } from '../../../lib/code-message.ts';
import { useBackOr } from '../../../lib/use-back.ts';
import type { AddressBookInput } from '../api/address-book.ts';
import { useSaveAddressMutation } from '../api/address-book-queries.ts';
import { type EntryInput, NAME_MAX, REMARK_MAX, validateEntry } from '../utils/validate-entry.ts';

/**
 * The address-book form: values, the problem to show per field (after a submit, or at once for a
 * typed address), and submit, which saves the trimmed entry and goes back.
 */
export function useEntryForm(initial: EntryInput, save: (entry: AddressBookInput) => Promise<unknown>) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const codeMessage = useCodeMessage();
  const back = useBackOr('/addressBook');
  const [values, setValues] = useState<EntryInput>(initial);
  const [submitted, setSubmitted] = useState(false);
  const mutation = useSaveAddressMutation(save);
  const problems = validateEntry(values);

  const problemOf = (field: keyof EntryInput): string | null => {
    const problem = problems[field];
    const addressTyped = field === 'address' && values.address.trim().length > 0;
    if (!problem || (!submitted && !addressTyped)) return null;
    if (problem === 'ADDRESS_INVALID') return codeMessage('ADDRESS_INVALID');
    if (problem === 'tooLong') return t('addressBook.tooLong', { max: field === 'name' ? NAME_MAX : REMARK_MAX });
    return t('addressBook.required');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    const entry = {
      name: values.name.trim(),
      walletType: values.walletType,
      network: values.network,
      address: values.address.trim(),
      remark: values.remark.trim() || null,
    };
    mutation.mutate(entry, {
      onSuccess: () => {
        toast.success(t('addressBook.saved'));
        back();
      },
      onError: (error) => toast.fail(errorMessage(error)),
    });
  };

  return {
    values,
    set: (patch: Partial<EntryInput>) => setValues((v) => ({ ...v, ...patch })),
    problemOf,
    submit,
    saving: mutation.isPending,
  };
}
