import { useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { NAMESPACE } from '../../../i18n.ts';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { addAddressBookEntry } from '../api/address-book.ts';
import { AddressEntryForm } from './address-entry-form.tsx';

/** /addressBook/add: a new saved address (the network may come preselected as ?network=). */
export default function AddAddressScreen() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  return (
    <WalletPage title={t('addressBook.addTitle')} testId="wallet-address-add" parent="/addressBook">
      <AddressEntryForm
        initial={{
          name: '',
          walletType: 'personal',
          network: params.get('network') ?? 'ethereum',
          address: '',
          remark: '',
        }}
        save={addAddressBookEntry}
      />
    </WalletPage>
  );
}
