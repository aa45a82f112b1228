import { api, unwrap } from '@cw/shared-state/api';
import { formatAmount } from '@cw/shared-state/money';
import { useCallback, useEffect, useState } from 'react';
import { problemOf } from './api.ts';
import { ArchiveCard } from './dashboard-archive.tsx';

type Figures = Awaited<ReturnType<typeof load>>;
type Money = { asset: string; decimals: number; minor: string };

const load = () => unwrap(api.GET('/api/ops/dashboard'));
/** The figures are re-read this often while the page is open (the heavy check has its own schedule). */
const POLL_MS = 15_000;

/** An amount written as the app writes it (shared-state/money: integers of the smallest unit, never a float). */
const money = (m: Money) => `${formatAmount(m.minor, m.decimals, 'en')} ${m.asset}`;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

function CheckCard({ check, onAsk }: { check: Figures['check']; onAsk: () => void }) {
  const r = check.reconcile;
  return (
    <section className="card" aria-labelledby="dash-check" data-testid="ops-dash-check" data-state={check.state}>
      <h2 id="dash-check">Reconcile</h2>
      <p>
        <strong>
          {check.state === 'ok' ? 'Balanced' : check.state === 'mismatch' ? 'MISMATCH' : 'Not checked yet'}
        </strong>{' '}
        <span className="muted">
          last check {when(check.finishedAt)}
          {check.durationMs === null ? '' : ` (${check.durationMs} ms)`}
          {check.requestedBy ? `, asked by ${check.requestedBy}` : ''}
        </span>
      </p>
      {r ? (
        <p>
          {r.accounts} accounts, {r.transfers} transfers, {r.entries} entries; {r.balanceMismatchCount} balance
          mismatches, {r.unbalancedTransferCount} unbalanced transfers, {r.brokenChains} broken chains.
        </p>
      ) : null}
      {check.custodyOnChain.map((c) => (
        <p key={c.network}>
          {c.network}:{' '}
          {c.skipped
            ? `not compared (${c.skipped})`
            : c.hot
                .map((h) => `hot wallet ${money(h)} on chain, book ${money({ ...h, minor: h.bookMinor })}`)
                .join('; ')}
        </p>
      ))}
      <button type="button" onClick={onAsk} disabled={check.pending !== null} data-testid="ops-dash-check-now">
        {check.pending === 'running'
          ? 'Check running…'
          : check.pending === 'requested'
            ? 'Check requested…'
            : 'Check now'}
      </button>
    </section>
  );
}

function Table({ caption, head, rows, testId }: { caption: string; head: string[]; rows: string[][]; testId: string }) {
  return (
    <table data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={head.length}>none</td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={row.join('|')}>
              {row.map((cell, i) => (
                <td key={`${head[i]}`}>{cell}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

function Figures({ f }: { f: Figures }) {
  const por = f.proofOfLiabilities;
  return (
    <>
      <section className="card" aria-labelledby="dash-por">
        <h2 id="dash-por">Proof of liabilities</h2>
        {por ? (
          <p data-testid="ops-dash-por">
            Root <code>{por.rootHash}</code> of {when(por.createdAt)}, {por.users} users:{' '}
            {por.totals.map(money).join(', ') || 'no balances'}
          </p>
        ) : (
          <p>None published yet.</p>
        )}
      </section>
      <section className="card" aria-labelledby="dash-custody">
        <h2 id="dash-custody">Custody against liabilities</h2>
        <Table
          caption="Per coin (liabilities from the last check)"
          head={['Coin', 'Custody', 'Liabilities', 'Covered']}
          rows={f.custody.perCoin.map((c) => [
            c.coin,
            money(c.custody),
            c.liabilities ? money(c.liabilities) : 'not checked',
            c.covered === null ? '?' : c.covered ? 'yes' : 'NO',
          ])}
          testId="ops-dash-custody"
        />
        <Table
          caption="Per network (custody book, chain units)"
          head={['Network', 'Hot wallet', 'Deposit addresses']}
          rows={f.custody.perNetwork.map((n) => [n.network, money(n.hotWallet), money(n.depositAddresses)])}
          testId="ops-dash-networks"
        />
      </section>
      <section className="card" aria-labelledby="dash-stuck">
        <h2 id="dash-stuck">Withdrawals stuck in signing</h2>
        <Table
          caption={`${f.stuckWithdrawals.count} unmoved for ${f.stuckWithdrawals.stuckAfterMinutes} minutes or more`}
          head={['Withdrawal', 'Network', 'State', 'Amount', 'Since']}
          rows={f.stuckWithdrawals.oldest.map((w) => [w.id, w.network, w.state, money(w.amount), when(w.since)])}
          testId="ops-dash-stuck"
        />
      </section>
      <section className="card" aria-labelledby="dash-alerts">
        <h2 id="dash-alerts">Reorg and chain alerts</h2>
        <Table
          caption={`${f.alerts.reorgCount} open reorg alerts`}
          head={['Network', 'Fork block', 'Deposits', 'Since']}
          rows={f.alerts.reorgs.map((r) => [r.network, r.forkBlock, String(r.deposits), when(r.createdAt)])}
          testId="ops-dash-reorgs"
        />
        <Table
          caption={`${f.alerts.chainCount} open chain alerts`}
          head={['Network', 'Kind', 'Detail', 'Since']}
          rows={f.alerts.chain.map((c) => [c.network, c.kind, c.detail, when(c.createdAt)])}
          testId="ops-dash-chain-alerts"
        />
      </section>
      <section className="card" aria-labelledby="dash-pools">
        <h2 id="dash-pools">Rewards pool and exchange liquidity</h2>
        <Table
          caption="Rewards pool"
          head={['Balance']}
          rows={f.rewardsPool.map((p) => [money(p)])}
          testId="ops-dash-rewards"
        />
        <Table
          caption="Liquidity lanes"
          head={['Total', 'Lanes']}
          rows={f.liquidity.map((l) => [
            money(l),
            l.lanes.map((lane) => `#${lane.lane}: ${formatAmount(lane.minor, l.decimals, 'en')}`).join(', '),
          ])}
          testId="ops-dash-liquidity"
        />
      </section>
    </>
  );
}

/** The finance dashboard: polled every 15 s; "Check now" asks the background instance for a fresh check. */
export function Dashboard() {
  const [figures, setFigures] = useState<Figures | null>(null);
  const [problem, setProblem] = useState('');
  const refresh = useCallback(() => {
    load().then(
      (f) => {
        setFigures(f);
        setProblem('');
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  }, []);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  const ask = () =>
    unwrap(api.POST('/api/ops/dashboard/check')).then(refresh, (e: unknown) => setProblem(problemOf(e)));
  return (
    <div className="dashboard" data-testid="ops-dashboard">
      {problem ? (
        <p className="problem" role="alert">
          {problem}
        </p>
      ) : null}
      {figures ? (
        <>
          <p className="muted" aria-live="polite">
            Figures of {when(figures.generatedAt)} (refreshed every {POLL_MS / 1000} s)
          </p>
          <CheckCard check={figures.check} onAsk={ask} />
          <Figures f={figures} />
          <ArchiveCard archive={figures.archive} />
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </div>
  );
}
