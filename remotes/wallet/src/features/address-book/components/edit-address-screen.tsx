import { useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { NAMESPACE } from '../../../i18n.ts';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { updateAddressBookEntry } from '../api/address-book.ts';
import { useAddressBook } from '../api/address-book-queries.ts';
import { AddressEntryForm } from './address-entry-form.tsx';

/** /addressBook/edit?id=: change a saved address (PUT replaces the whole entry). */
export default function EditAddressScreen() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const book = useAddressBook();
  const entry = book.data?.find((e) => e.id === id);

  let body = null;
  if (book.isPending) body = <LoadingState />;
  else if (book.isError) body = <ErrorState onRetry={() => void book.refetch()} />;
  else if (!entry) body = <EmptyState text={t('addressBook.notFound')} />;
  else
    body = (
      <AddressEntryForm
        // A fresh form per entry: the form keeps its own values from the first render.
        key={entry.id}
        initial={{
          name: entry.name,
          walletType: entry.walletType,
          network: entry.network,
          address: entry.address,
          remark: entry.remark ?? '',
        }}
        save={(next) => updateAddressBookEntry(entry.id, next)}
      />
    );

  return (
    <WalletPage title={t('addressBook.editTitle')} testId="wallet-address-edit" parent="/addressBook">
      {body}
    </WalletPage>
  );
}
