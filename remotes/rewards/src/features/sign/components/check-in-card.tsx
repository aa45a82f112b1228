import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import type { Web3Kit } from '@cw/shared-state/web3';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/rewards.module.css';
import type { SignStatus } from '../api/sign.ts';

export type CheckInPhase = 'idle' | 'prompt' | 'signing';

interface Props {
  kit: Web3Kit;
  status: SignStatus;
  chainId: number;
  contract: `0x${string}`;
  /** The transaction being confirmed (the parent polls the status while it is set). */
  pendingTx: string | null;
  onSubmitted: (hash: string | null) => void;
}

/**
 * The check-in button and its progress: the wallet prompt (gas and a simulation first, so a doomed
 * call is refused before any prompt), then "signing…" until the server has the record at its
 * confirmations — success is never shown on mere submission.
 */
export function CheckInCard({ kit, status, chainId, contract, pendingTx, onSubmitted }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const [prompting, setPrompting] = useState(false);
  const record = pendingTx ? status.records.find((r) => r.txHash.toLowerCase() === pendingTx.toLowerCase()) : undefined;

  useEffect(() => {
    if (record?.state === 'confirmed') {
      toast.success(t('sign.confirmed'));
      onSubmitted(null);
    }
  }, [record?.state, onSubmitted, t]);

  const checkIn = async () => {
    if (status.todayState !== 'none') {
      toast.fail(t('sign.alreadyToday'));
      return;
    }
    setPrompting(true);
    try {
      const hash = await kit.checkIn({ chainId, contract, memberTag: status.memberTag as `0x${string}` });
      onSubmitted(hash);
    } catch (err) {
      toast.fail(errorMessage(err));
    } finally {
      setPrompting(false);
    }
  };

  const signing = pendingTx !== null || status.todayState === 'seen';
  const done = status.todayState === 'confirmed' && pendingTx === null;
  let label = t('sign.checkIn');
  if (prompting) label = t('sign.confirmInWallet');
  else if (signing) label = t('sign.signing');
  else if (done) label = t('sign.checkedIn');
  return (
    <section className={ui.card} data-testid="check-in-card">
      <Button
        block
        color="primary"
        size="large"
        data-testid="check-in"
        loading={prompting || signing}
        disabled={done || signing}
        onClick={() => void checkIn()}
      >
        {label}
      </Button>
      <p className={ui.muted} role="status" data-testid="check-in-state">
        {signing ? t('sign.signingHint') : done ? t('sign.confirmedHint') : t('sign.promptHint')}
      </p>
    </section>
  );
}
