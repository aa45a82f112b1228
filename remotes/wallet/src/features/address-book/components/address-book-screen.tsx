import { type CatalogueView, useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { copyText } from '@cw/shared-ui/clipboard';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, SwipeAction } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import type { AddressBookEntry } from '../api/address-book.ts';
import { useAddressBook, useDeleteAddressMutation, useTrustAddressMutation } from '../api/address-book-queries.ts';
import * as styles from './address-book.module.css';
import { TrustLine } from './trust-line.tsx';

/** One saved address: name, type and network, the address (tap copies), edit, send to it; swipe deletes. */
function EntryRow({
  entry,
  view,
  onDelete,
  onTrust,
}: {
  entry: AddressBookEntry;
  view: CatalogueView | undefined;
  onDelete: () => void;
  onTrust: (trusted: boolean) => void;
}) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <SwipeAction rightActions={[{ key: 'delete', text: t('addressBook.delete'), color: 'danger', onClick: onDelete }]}>
      <div className={styles.entryBody} data-testid="address-book-entry">
        {/* Name on its own line, then type and network: side by side both wrapped on a phone. */}
        <span className={`${ui.strong} ${styles.name}`}>{entry.name}</span>
        <span className={ui.muted}>
          {t(`addressBook.walletType.${entry.walletType}`, { defaultValue: entry.walletType })} ·{' '}
          {view?.networkLabel(entry.network) ?? entry.network}
        </span>
        <button
          type="button"
          className={`${styles.address} ${ui.mono}`}
          onClick={() => void copyText(entry.address)}
          data-testid="address-book-address"
        >
          {entry.address}
        </button>
        {entry.remark && <span className={ui.muted}>{entry.remark}</span>}
        <TrustLine trusted={entry.trusted} usableAt={entry.usableAt} />
        <div className={styles.actions}>
          <Button
            size="mini"
            fill="outline"
            data-testid="address-book-trust-toggle"
            onClick={() => onTrust(!entry.trusted)}
          >
            {entry.trusted ? t('addressBook.trust.untrust') : t('addressBook.trust.trust')}
          </Button>
          <Button
            size="mini"
            fill="outline"
            data-testid="address-book-edit"
            onClick={() => void navigate(`/addressBook/edit?id=${encodeURIComponent(entry.id)}`)}
          >
            {t('addressBook.edit')}
          </Button>
          <Button
            size="mini"
            color="primary"
            fill="outline"
            onClick={() =>
              void navigate(`/coinTopup/send?network=${entry.network}&address=${encodeURIComponent(entry.address)}`)
            }
          >
            {t('addressBook.sendTo')}
          </Button>
        </div>
      </div>
    </SwipeAction>
  );
}

/** /addressBook: saved withdrawal addresses; send to one, edit it, or swipe it to delete. */
export default function AddressBookScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const book = useAddressBook();
  const { view } = useCatalogue();
  const deletion = useDeleteAddressMutation();
  const remove = (id: string) => deletion.mutate(id, { onError: (error) => toast.fail(errorMessage(error)) });
  const trust = useTrustAddressMutation();
  const setTrusted = (id: string, trusted: boolean) =>
    trust.mutate({ id, trusted }, { onError: (error) => toast.fail(errorMessage(error)) });

  const addButton = (
    <button
      type="button"
      className={styles.add}
      aria-label={t('addressBook.add')}
      data-testid="address-book-add"
      onClick={() => void navigate('/addressBook/add')}
    >
      <AddOutline aria-hidden />
    </button>
  );

  let body = null;
  if (book.isPending) body = <LoadingState />;
  else if (book.isError) body = <ErrorState onRetry={() => void book.refetch()} />;
  else if (book.data.length === 0)
    body = (
      <EmptyState text={t('addressBook.empty')}>
        <Button color="primary" size="small" onClick={() => void navigate('/addressBook/add')}>
          {t('addressBook.add')}
        </Button>
      </EmptyState>
    );
  else
    body = (
      <ul className={styles.list} data-testid="address-book-list">
        {book.data.map((entry) => (
          <li key={entry.id} className={styles.entry}>
            <EntryRow
              entry={entry}
              view={view}
              onDelete={() => remove(entry.id)}
              onTrust={(trusted) => setTrusted(entry.id, trusted)}
            />
          </li>
        ))}
      </ul>
    );

  return (
    <WalletPage title={t('addressBook.title')} testId="wallet-address-book" parent="/coinTopup" right={addButton}>
      {body}
    </WalletPage>
  );
}
