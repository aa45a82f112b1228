import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { CLIENT_SEED_PATTERN } from '@cw/shared-state/lottery';
import { toast } from '@cw/shared-ui/toast';
import { Button, Input } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/rewards.module.css';
import { type LikesStatus, useClientSeedMutation } from '../api/likes.ts';

/**
 * The seed pair the user's draws run on (commitment, client seed, draws made) and the next server
 * seed's commitment, shown BEFORE the user picks the next client seed: changing it reveals the
 * current server seed, so every earlier draw can be verified (issue 36 item 15).
 */
export function FairnessCard({ fairness, prizes }: Pick<LikesStatus, 'fairness' | 'prizes'>) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const change = useClientSeedMutation();
  const [seed, setSeed] = useState('');
  const valid = CLIENT_SEED_PATTERN.test(seed);
  const onSet = () =>
    change.mutate(
      { userId: fairness.userId, clientSeed: seed, commitment: fairness.nextCommitment, prizes },
      {
        onSuccess: () => {
          setSeed('');
          toast.success(t('likes.clientSeedSet'));
        },
        onError: (err) => toast.fail(errorMessage(err)),
      },
    );
  return (
    <section className={ui.card} data-testid="fairness">
      <span className={ui.label}>{t('likes.fairness')}</span>
      {fairness.active ? (
        <>
          <p className={`${ui.muted} ${ui.mono}`} data-testid="commitment">
            {t('likes.activeCommitment', { hash: fairness.active.commitment })}
          </p>
          <p className={`${ui.muted} ${ui.mono}`} data-testid="client-seed">
            {t('likes.clientSeed', { seed: fairness.active.clientSeed, nonce: fairness.active.nonce })}
          </p>
        </>
      ) : (
        <p className={ui.muted}>{t('likes.noClientSeed')}</p>
      )}
      <p className={`${ui.muted} ${ui.mono}`} data-testid="next-commitment">
        {t('likes.nextCommitment', { hash: fairness.nextCommitment })}
      </p>
      <Input
        value={seed}
        onChange={setSeed}
        maxLength={64}
        placeholder={t('likes.clientSeedPlaceholder')}
        data-testid="client-seed-input"
      />
      <Button size="small" disabled={!valid} loading={change.isPending} data-testid="set-client-seed" onClick={onSet}>
        {t('likes.setClientSeed')}
      </Button>
    </section>
  );
}
