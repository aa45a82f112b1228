import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { verifyClientSeedDraw, verifyDraw } from '@cw/shared-state/lottery';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { formatDay } from '../../../lib/format.ts';
import * as ui from '../../../lib/rewards.module.css';
import { fetchLotteryDay, type LikesStatus, type LotteryDay } from '../api/likes.ts';
import { auditDraws, type DrawIssue, loadSeedRecords } from '../lib/seed-records.ts';

type Prizes = LikesStatus['prizes'];

type DrawOf = LotteryDay['draws'][number];
type Checked = { draw: DrawOf; ok: boolean | null; issues: DrawIssue[] };
type Result = { state: 'checked'; draws: Checked[] } | { state: 'error'; message: string };

const ISSUE_KEYS = {
  notSetHere: 'likes.issueNotSetHere',
  clientSeedMismatch: 'likes.issueClientSeed',
  prizeTableMismatch: 'likes.issuePrizeTable',
  nonceGap: 'likes.issueNonceGap',
} as const satisfies Record<DrawIssue, string>;

/**
 * The day's draws plus, for each of its seed pairs whose first draw here is not nonce 1, the draws
 * of that pair on earlier days (newest first, until nonce 1 is found): the nonce check needs them all.
 */
async function drawsWithEarlier(view: LotteryDay, day: string, pastDays: readonly string[]): Promise<DrawOf[]> {
  const all = [...view.draws];
  const missingFirst = () =>
    new Set(
      all
        .filter((d) => d.clientSeed !== null)
        .map((d) => d.commitment)
        .filter((c) => !all.some((d) => d.commitment === c && d.nonce === 1)),
    );
  for (const earlier of [...pastDays].filter((d) => d < day).sort((a, b) => b.localeCompare(a))) {
    const wanted = missingFirst();
    if (wanted.size === 0) break;
    const older = await fetchLotteryDay(earlier);
    all.push(...older.draws.filter((d) => wanted.has(d.commitment)));
  }
  return all;
}

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

/**
 * One day: fetch its draws with their inputs, verify each, check its pair against the pairs this
 * browser set (client seed, prize table, nonces 1..N) and show every input it used.
 */
export function VerifyDay({ day, prizes, pastDays }: { day: string; prizes: Prizes; pastDays: readonly string[] }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const verify = async () => {
    setBusy(true);
    try {
      const view = await fetchLotteryDay(day);
      const audit = auditDraws(await drawsWithEarlier(view, day, pastDays), loadSeedRecords(view.userId));
      const draws = await Promise.all(
        view.draws.map(async (d) => ({
          draw: d,
          ok: await check(d, view.userId, day, prizes),
          issues: audit.find((a) => a.draw === d)?.issues ?? [],
        })),
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
    const warned = result.draws.some((c) => c.issues.length > 0);
    const failed = result.draws.some((c) => c.ok === false);
    ok = failed || warned ? false : hidden ? undefined : true;
    text = failed
      ? t('likes.mismatch')
      : warned
        ? t('likes.seedWarning')
        : hidden
          ? t('likes.notRevealed')
          : t('likes.verified', { count: result.draws.length });
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
        ? result.draws.map(({ draw: d, ok: drawOk, issues }) => (
            <dl
              key={d.n}
              className={`${ui.muted} ${ui.mono}`}
              data-testid="draw-inputs"
              data-ok={issues.length > 0 ? false : (drawOk ?? undefined)}
            >
              <dt>{t('likes.drawN', { n: d.n })}</dt>
              <dd>{t('likes.inputCommitment', { value: d.commitment })}</dd>
              <dd>{t('likes.inputServerSeed', { value: d.serverSeed ?? t('likes.notRevealedYet') })}</dd>
              <dd>{t('likes.inputClientSeed', { value: d.clientSeed ?? t('likes.daySeedDraw') })}</dd>
              <dd>{t('likes.inputNonce', { value: d.nonce })}</dd>
              <dd>{t('likes.inputPrizeTable', { value: d.prizeTableHash ?? '-' })}</dd>
              {issues.map((issue) => (
                <dd key={issue} role="alert" data-testid="draw-issue" data-issue={issue}>
                  {t(ISSUE_KEYS[issue])}
                </dd>
              ))}
            </dl>
          ))
        : null}
    </div>
  );
}
