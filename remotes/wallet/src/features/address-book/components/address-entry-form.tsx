import { useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { NetworkIcon } from '@cw/shared-ui/coin-icon';
import { toast } from '@cw/shared-ui/toast';
import { Button, Input } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { AddressField } from '../../../lib/address-field.tsx';
import { useCodeMessage } from '../../../lib/code-message.ts';
import { useBackOr } from '../../../lib/use-back.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { type AddressBookInput, WALLET_TYPES } from '../api/address-book.ts';
import { useSaveAddressMutation } from '../api/address-book-queries.ts';
import { type EntryInput, NAME_MAX, REMARK_MAX, validateEntry } from '../utils/validate-entry.ts';

interface AddressEntryFormProps {
  initial: EntryInput;
  /** Stores the checked entry (add or replace); the form then refreshes the list and goes back. */
  save: (entry: AddressBookInput) => Promise<unknown>;
}

/** Name, wallet type, network, an address valid on that network, and a remark: for adding and for editing. */
export function AddressEntryForm({ initial, save }: AddressEntryFormProps) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const codeMessage = useCodeMessage();
  const back = useBackOr('/addressBook');
  const { view } = useCatalogue();
  const networks = view?.catalogue.networks.map((n) => n.code) ?? [];
  const [values, setValues] = useState<EntryInput>(initial);
  const [submitted, setSubmitted] = useState(false);
  const mutation = useSaveAddressMutation(save);
  const problems = validateEntry(values);
  const set = (patch: Partial<EntryInput>) => setValues((v) => ({ ...v, ...patch }));
  const problemText = (field: keyof EntryInput) => {
    const problem = problems[field];
    const addressTyped = field === 'address' && values.address.trim().length > 0;
    if (!problem || (!submitted && !addressTyped)) return null;
    const text =
      problem === 'ADDRESS_INVALID'
        ? codeMessage('ADDRESS_INVALID')
        : problem === 'tooLong'
          ? t('addressBook.tooLong', { max: field === 'name' ? NAME_MAX : REMARK_MAX })
          : t('addressBook.required');
    return (
      <p className={ui.error} role="alert" data-testid={`address-add-${field}-error`}>
        {text}
      </p>
    );
  };

  const onSubmit = (event: FormEvent) => {
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

  return (
    <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={onSubmit}>
      <span className={ui.label}>{t('addressBook.name')}</span>
      <Input
        value={values.name}
        onChange={(name) => set({ name })}
        maxLength={NAME_MAX}
        className={ui.input}
        placeholder={t('addressBook.namePlaceholder')}
        data-testid="address-add-name"
      />
      {problemText('name')}
      <span className={ui.label}>{t('addressBook.walletTypeLabel')}</span>
      <ChipSelect
        testId="address-add-wallet-type"
        columns={3}
        options={WALLET_TYPES.map((type) => ({ label: t(`addressBook.walletType.${type}`), value: type }))}
        value={values.walletType}
        onChange={(walletType) => set({ walletType })}
      />
      <span className={ui.label}>{t('common.network')}</span>
      <ChipSelect
        testId="address-add-network"
        columns={2}
        options={networks.map((code) => ({
          label: view?.networkLabel(code) ?? code,
          value: code,
          icon: <NetworkIcon network={code} />,
        }))}
        value={values.network}
        onChange={(network) => set({ network })}
      />
      {problemText('network')}
      <span className={ui.label}>{t('send.address')}</span>
      <AddressField
        value={values.address}
        onChange={(address) => set({ address })}
        placeholder={t('send.addressPlaceholder')}
        testId="address-add-address"
      />
      {problemText('address')}
      <span className={ui.label}>{t('addressBook.remark')}</span>
      <Input
        value={values.remark}
        onChange={(remark) => set({ remark })}
        maxLength={REMARK_MAX}
        className={ui.input}
        placeholder={t('addressBook.remarkPlaceholder')}
        data-testid="address-add-remark"
      />
      {problemText('remark')}
      <Button
        type="submit"
        block
        color="primary"
        size="large"
        loading={mutation.isPending}
        data-testid="address-add-submit"
      >
        {t('addressBook.save')}
      </Button>
    </form>
  );
}
