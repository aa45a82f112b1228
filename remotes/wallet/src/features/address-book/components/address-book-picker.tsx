import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { AddressBookEntry } from '../api/address-book.ts';
import { useAddressBook } from '../api/address-book-queries.ts';

/** Saved addresses of one network, to fill the send form's address. */
export function AddressBookPicker({ network, onPick }: { network: string; onPick: (entry: AddressBookEntry) => void }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const book = useAddressBook();
  const entries = book.data?.filter((entry) => entry.network === network) ?? [];
  let content = null;
  if (book.isPending) content = <LoadingState />;
  else if (book.isError) content = <ErrorState onRetry={() => void book.refetch()} />;
  else if (entries.length === 0)
    content = (
      <EmptyState text={t('addressBook.emptyForNetwork')}>
        <Button size="small" color="primary" onClick={() => void navigate(`/addressBook/add?network=${network}`)}>
          {t('addressBook.add')}
        </Button>
      </EmptyState>
    );
  else
    content = (
      <List>
        {entries.map((entry) => (
          <List.Item
            key={entry.id}
            description={<span style={{ wordBreak: 'break-all' }}>{entry.address}</span>}
            onClick={() => onPick(entry)}
            data-testid="address-book-pick"
          >
            {entry.name}
          </List.Item>
        ))}
      </List>
    );
  return (
    <section data-testid="address-book-picker">
      <h2 style={{ margin: 0, padding: '16px 16px 8px', fontSize: 16 }}>{t('addressBook.pickTitle')}</h2>
      {content}
    </section>
  );
}
