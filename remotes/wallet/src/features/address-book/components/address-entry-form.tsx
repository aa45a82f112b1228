import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { NetworkIcon } from '@cw/shared-ui/coin-icon';
import { Button, Input } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { AddressField } from '../../../lib/address-field.tsx';
import { networkPaymentContext } from '../../../lib/payment-uri.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { type AddressBookInput, WALLET_TYPES } from '../api/address-book.ts';
import { useEntryForm } from '../hooks/use-entry-form.ts';
import { type EntryInput, NAME_MAX, REMARK_MAX } from '../utils/validate-entry.ts';

interface AddressEntryFormProps {
  initial: EntryInput;
  /** Stores the checked entry (add or replace); the form then refreshes the list and goes back. */
  save: (entry: AddressBookInput) => Promise<unknown>;
}

function FieldProblem({ field, text }: { field: keyof EntryInput; text: string | null }) {
  if (text === null) return null;
  return (
    <p className={ui.error} role="alert" data-testid={`address-add-${field}-error`}>
      {text}
    </p>
  );
}

/** Name, wallet type, network, an address valid on that network, and a remark: for adding and for editing. */
export function AddressEntryForm({ initial, save }: AddressEntryFormProps) {
  const { t } = useTranslation(NAMESPACE);
  const { view } = useCatalogue();
  const networks = view?.catalogue.networks.map((n) => n.code) ?? [];
  const { values, set, problemOf, submit, saving } = useEntryForm(initial, save);
  const problem = (field: keyof EntryInput) => <FieldProblem field={field} text={problemOf(field)} />;

  return (
    <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={submit}>
      <span className={ui.label}>{t('addressBook.name')}</span>
      <Input
        value={values.name}
        onChange={(name) => set({ name })}
        maxLength={NAME_MAX}
        className={ui.input}
        placeholder={t('addressBook.namePlaceholder')}
        data-testid="address-add-name"
      />
      {problem('name')}
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
      {problem('network')}
      <span className={ui.label}>{t('send.address')}</span>
      <AddressField
        value={values.address}
        onChange={(address) => set({ address })}
        placeholder={t('send.addressPlaceholder')}
        testId="address-add-address"
        // A scanned payment request for another chain than the selected network is refused, not saved
        // under this network (a QR for chain 56 filed as an Ethereum address).
        payment={networkPaymentContext(
          view?.catalogue.networks.find((n) => n.code === values.network)?.chainId ?? null,
        )}
      />
      {problem('address')}
      <span className={ui.label}>{t('addressBook.remark')}</span>
      <Input
        value={values.remark}
        onChange={(remark) => set({ remark })}
        maxLength={REMARK_MAX}
        className={ui.input}
        placeholder={t('addressBook.remarkPlaceholder')}
        data-testid="address-add-remark"
      />
      {problem('remark')}
      <Button type="submit" block color="primary" size="large" loading={saving} data-testid="address-add-submit">
        {t('addressBook.save')}
      </Button>
    </form>
  );
}
