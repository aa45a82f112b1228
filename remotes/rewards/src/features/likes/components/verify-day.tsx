import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { verifyDraw } from '@cw/shared-state/lottery';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { formatDay } from '../../../lib/format.ts';
import * as ui from '../../../lib/rewards.module.css';
import { fetchLotteryDay, type LikesStatus } from '../api/likes.ts';

type Result =
  | { state: 'hidden' }
  | { state: 'checked'; ok: boolean; draws: number }
  | { state: 'error'; message: string };

/**
 * One past day: fetch its revealed seed and recompute each of the user's draws here, in the browser
 * (WebCrypto): SHA-256(seed) must be the commitment shown that day, HMAC(seed, "u:day:n") the prize.
 */
export function VerifyDay({ day, prizes }: { day: string; prizes: LikesStatus['prizes'] }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const verify = async () => {
    setBusy(true);
    try {
      const revealed = await fetchLotteryDay(day);
      if (!revealed.seed) {
        setResult({ state: 'hidden' });
        return;
      }
      const seedHex = revealed.seed;
      const checks = await Promise.all(
        revealed.draws.map((d) =>
          verifyDraw({
            seedHex,
            commitment: revealed.commitment,
            userId: revealed.userId,
            day,
            n: d.n,
            prizeIndex: d.prizeIndex,
            prizes,
          }),
        ),
      );
      setResult({ state: 'checked', ok: checks.every((c) => c.commitmentOk && c.drawOk), draws: checks.length });
    } catch (err) {
      setResult({ state: 'error', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  let text = '';
  if (result?.state === 'hidden') text = t('likes.notRevealed');
  else if (result?.state === 'error') text = result.message;
  else if (result?.state === 'checked')
    text = result.ok ? t('likes.verified', { count: result.draws }) : t('likes.mismatch');
  return (
    <div className={ui.row} data-testid="verify-day">
      <span>{formatDay(day, i18n.language)}</span>
      <span role="status" data-testid="verify-result" data-ok={result?.state === 'checked' ? result.ok : undefined}>
        {text}
      </span>
      <Button size="small" loading={busy} data-testid="verify" onClick={() => void verify()}>
        {t('likes.verify')}
      </Button>
    </div>
  );
}
