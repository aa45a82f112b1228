import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { verifyClientSeedDraw, verifyDraw } from '@cw/shared-state/lottery';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { formatDay } from '../../../lib/format.ts';
import * as ui from '../../../lib/rewards.module.css';
import { fetchLotteryDay, type LikesStatus, type LotteryDay } from '../api/likes.ts';

type Prizes = LikesStatus['prizes'];

type DrawOf = LotteryDay['draws'][number];
type Checked = { draw: DrawOf; ok: boolean | null };
type Result = { state: 'checked'; draws: Checked[] } | { state: 'error'; message: string };

/**
 * Recomputes one draw here, in the browser (WebCrypto), from its own inputs: SHA-256(server seed) is
 * the commitment, the prize table hashes to its hash, HMAC(server seed, "clientSeed:nonce") maps to the
 * prize. An older draw (no client seed) is HMAC(day seed, "u:day:n") on today's table. null:
 * its server seed is not revealed yet.
 */
async function check(d: DrawOf, userId: string, day: string, prizes: Prizes): Promise<boolean | null> {
  if (d.serverSeed === null) return null;
  if (d.clientSeed !== null && d.prizeTable !== null && d.prizeTableHash !== null) {
    const r = await verifyClientSeedDraw({
      serverSeedHex: d.serverSeed,
      commitment: d.commitment,
      clientSeed: d.clientSeed,
      nonce: d.nonce,
      prizeTable: d.prizeTable,
      prizeTableHash: d.prizeTableHash,
      prizeIndex: d.prizeIndex,
    });
    return r.commitmentOk && r.prizeTableOk && r.drawOk;
  }
  const r = await verifyDraw({
    seedHex: d.serverSeed,
    commitment: d.commitment,
    userId,
    day,
    n: d.n,
    prizeIndex: d.prizeIndex,
    prizes,
  });
  return r.commitmentOk && r.drawOk;
}

/** One day: fetch its draws with their inputs, verify each and show every input it used. */
export function VerifyDay({ day, prizes }: { day: string; prizes: Prizes }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const verify = async () => {
    setBusy(true);
    try {
      const view = await fetchLotteryDay(day);
      const draws = await Promise.all(
        view.draws.map(async (d) => ({ draw: d, ok: await check(d, view.userId, day, prizes) })),
      );
      setResult({ state: 'checked', draws });
    } catch (err) {
      setResult({ state: 'error', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  let text = '';
  let ok: boolean | undefined;
  if (result?.state === 'error') text = result.message;
  else if (result?.state === 'checked') {
    const hidden = result.draws.some((c) => c.ok === null);
    ok = hidden ? undefined : result.draws.every((c) => c.ok === true);
    text = hidden
      ? t('likes.notRevealed')
      : ok
        ? t('likes.verified', { count: result.draws.length })
        : t('likes.mismatch');
  }
  return (
    <div data-testid="verify-day">
      <div className={ui.row}>
        <span>{formatDay(day, i18n.language)}</span>
        <span role="status" data-testid="verify-result" data-ok={ok}>
          {text}
        </span>
        <Button size="small" loading={busy} data-testid="verify" onClick={() => void verify()}>
          {t('likes.verify')}
        </Button>
      </div>
      {result?.state === 'checked'
        ? result.draws.map(({ draw: d, ok: drawOk }) => (
            <dl key={d.n} className={`${ui.muted} ${ui.mono}`} data-testid="draw-inputs" data-ok={drawOk ?? undefined}>
              <dt>{t('likes.drawN', { n: d.n })}</dt>
              <dd>{t('likes.inputCommitment', { value: d.commitment })}</dd>
              <dd>{t('likes.inputServerSeed', { value: d.serverSeed ?? t('likes.notRevealedYet') })}</dd>
              <dd>{t('likes.inputClientSeed', { value: d.clientSeed ?? t('likes.daySeedDraw') })}</dd>
              <dd>{t('likes.inputNonce', { value: d.nonce })}</dd>
              <dd>{t('likes.inputPrizeTable', { value: d.prizeTableHash ?? '-' })}</dd>
            </dl>
          ))
        : null}
    </div>
  );
}
