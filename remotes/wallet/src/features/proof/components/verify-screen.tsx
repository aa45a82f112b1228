import { isApiError } from '@cw/shared-state/api';
import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { type InclusionProof, verifyProof } from '@cw/shared-state/por';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, Result } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { DetailRows } from '../../../lib/detail-rows.tsx';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { type PorStatus, type Proof, usePorRoots, usePorStatus, useProof } from '../api/proof-api.ts';

/** Saves the proof as a JSON file the user can check with any other tool. */
function download(proof: Proof) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `proof-of-liabilities-${proof.snapshotId}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Not in the latest snapshot (a new account, or nothing held then): when it was taken and when the next is due. */
function NotYet({ status }: { status: PorStatus }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  return (
    <Result
      status="waiting"
      title={t('proof.notYet')}
      description={
        status.latest
          ? t('proof.notYetHint', { snapshot: when(status.latest.createdAt), next: when(status.nextDueAt) })
          : t('proof.noneYetHint', { next: when(status.nextDueAt) })
      }
      data-testid="proof-not-yet"
    />
  );
}

/**
 * /coinTopup/verify: "Verify my balance". The proof is checked HERE, in the browser, with the same
 * Merkle-sum code the server built the tree with: the user's leaf is hashed and walked up to the
 * root, which must equal the root the platform published (hash and every total).
 */
export default function VerifyScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const roots = usePorRoots();
  const status = usePorStatus();
  const proof = useProof(status.data?.included === true);
  const catalogue = useCatalogue();
  const amount = (minor: string, asset: string) =>
    `${format.display(minor, coinDisplay(asset, catalogue.data?.coins ?? []))} ${asset}`;

  let body = <LoadingState />;
  if (status.data && !status.data.included) body = <NotYet status={status.data} />;
  // A snapshot published between the status and the proof: the next visit shows it.
  else if (proof.isError && isApiError(proof.error) && proof.error.code === 'NOT_FOUND') body = <EmptyState />;
  else if (status.isError || proof.isError || roots.isError)
    body = <ErrorState onRetry={() => void Promise.all([status.refetch(), proof.refetch(), roots.refetch()])} />;
  else if (proof.data && roots.data) {
    const p = proof.data;
    const published = [roots.data.latest, ...roots.data.history].find((r) => r?.id === p.snapshotId) ?? null;
    // The root must be the PUBLISHED one, not merely the one the proof names.
    const matchesPublished =
      published !== null && published.rootHash === p.root.hash && published.rootSums.join() === p.root.sums.join();
    const result = verifyProof(p as InclusionProof);
    const ok = result.ok && matchesPublished;
    body = (
      <>
        <Result
          status={ok ? 'success' : 'error'}
          title={ok ? t('proof.ok') : t('proof.failed')}
          description={ok ? t('proof.okHint') : t(`proof.reason.${result.ok ? 'unpublished' : result.reason}`)}
          data-testid="proof-result"
          data-ok={ok}
        />
        <DetailRows
          rows={[
            {
              label: t('proof.snapshot'),
              value: published ? new Date(published.createdAt).toLocaleString(i18n.language) : '',
            },
            { label: t('proof.root'), value: p.root.hash, mono: true, testId: 'proof-root' },
            { label: t('proof.users'), value: published ? String(published.leafCount) : '' },
            ...p.assets.map((asset, i) => ({
              label: t('proof.yours', { asset }),
              value: amount(p.leaf.balances[i] ?? '0', asset),
              testId: `proof-balance-${asset}`,
            })),
            ...p.assets.map((asset, i) => ({
              label: t('proof.total', { asset }),
              value: amount(p.root.sums[i] ?? '0', asset),
              testId: `proof-total-${asset}`,
            })),
          ]}
        />
        <p className={ui.muted}>{t('proof.explain', { steps: p.path.length })}</p>
        {published && status.data ? (
          <p className={ui.muted} data-testid="proof-as-of">
            {t('proof.asOf', {
              snapshot: new Date(published.createdAt).toLocaleString(i18n.language),
              next: new Date(status.data.nextDueAt).toLocaleString(i18n.language),
            })}
          </p>
        ) : null}
        <Button block data-testid="proof-download" onClick={() => download(p)}>
          {t('proof.download')}
        </Button>
      </>
    );
  }
  return (
    <WalletPage title={t('proof.title')} testId="wallet-proof" parent="/coinTopup">
      {body}
    </WalletPage>
  );
}
