import { useCallback, useEffect, useState } from 'react';
import { problemOf, type Role } from './api.ts';
import { amountOf, Signals, usdOf } from './withdrawal-signals.tsx';
import { type BulkResult, type ReviewItem, type ReviewQuery, withdrawalsApi } from './withdrawals-api.ts';

const PAGE = 20;
const BECAUSE: Record<string, string> = {
  above_threshold: 'above the second-approval value',
  price_unavailable: 'no fresh price (fail closed)',
  second_look: 'second look asked',
};

function Decisions({ item }: { item: ReviewItem }) {
  if (item.decisions.length === 0) return null;
  return (
    <ul className="muted" data-testid={`ops-wd-decisions-${item.id}`}>
      {item.decisions.map((d) => (
        <li key={`${d.operator}-${d.decidedAt}-${d.decision}`}>
          {d.decision.replace('_', ' ')} by {d.operator} at {new Date(d.decidedAt).toLocaleString()}
          {d.reason ? `: ${d.reason}` : ''}
        </li>
      ))}
    </ul>
  );
}

function Row(props: {
  item: ReviewItem;
  finance: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  reload: () => void;
}) {
  const { item, finance } = props;
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState('');
  const act = (work: () => Promise<unknown>) => {
    setProblem('');
    work().then(props.reload, (e: unknown) => setProblem(problemOf(e)));
  };
  const needReason = (then: (r: string) => Promise<unknown>) => () =>
    reason.trim()
      ? act(() => then(reason.trim()))
      : setProblem('Write a reason first (the user sees a rejection reason)');
  const awaiting = item.state === 'awaiting_second_approval';
  return (
    <tr data-testid={`ops-wd-row-${item.id}`} data-state={item.state}>
      <td>
        {finance ? (
          <input
            type="checkbox"
            aria-label="Select for bulk approval"
            checked={props.selected}
            onChange={(e) => props.onSelect(e.target.checked)}
            data-testid={`ops-wd-select-${item.id}`}
          />
        ) : null}
      </td>
      <td>
        {new Date(item.createdAt).toLocaleString()}
        <br />
        <span className="muted">{item.username || item.userId}</span>
      </td>
      <td>
        <strong data-testid={`ops-wd-amount-${item.id}`}>{amountOf(item.amountMinor, item)}</strong>
        <br />
        <span className="muted">
          {usdOf(item.valueUsdCents)} · {item.network} · <code title={item.address}>{item.address}</code>
        </span>
      </td>
      <td>
        <span data-testid={`ops-wd-state-${item.id}`}>{awaiting ? 'awaiting second approval' : 'in review'}</span>
        {item.fourEyes ? <div className="flag">Four eyes: {BECAUSE[item.fourEyes] ?? item.fourEyes}</div> : null}
        <Decisions item={item} />
      </td>
      <td>
        <Signals item={item} />
      </td>
      <td>
        <div className="row">
          {finance ? (
            <button
              type="button"
              onClick={() => act(() => withdrawalsApi.approve(item.id))}
              data-testid={`ops-wd-approve-${item.id}`}
            >
              {awaiting ? 'Give second approval' : 'Approve'}
            </button>
          ) : null}
          <input
            aria-label="Reason"
            placeholder="Reason"
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid={`ops-wd-reason-${item.id}`}
          />
          <button
            type="button"
            onClick={needReason((r) => withdrawalsApi.reject(item.id, r))}
            data-testid={`ops-wd-reject-${item.id}`}
          >
            Reject
          </button>
          <button
            type="button"
            onClick={needReason((r) => withdrawalsApi.secondLook(item.id, r))}
            data-testid={`ops-wd-look-${item.id}`}
          >
            Second look
          </button>
        </div>
        {problem ? (
          <p className="problem" role="alert" data-testid={`ops-wd-problem-${item.id}`}>
            {problem}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * Finance and compliance: the withdrawals waiting for review, oldest first, with the risk signals the
 * server computed. Finance approves (alone below the second-approval value; above it two finance
 * operators, never the same one twice) and bulk-approves small ones; both reject or ask for a second look.
 */
export function Withdrawals({ roles }: { roles: readonly Role[] }) {
  const finance = roles.includes('finance');
  const [state, setState] = useState<ReviewQuery['state'] | ''>('');
  const [items, setItems] = useState<ReviewItem[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [summary, setSummary] = useState({ waiting: 0, threshold: '0' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<BulkResult[]>([]);
  const [problem, setProblem] = useState('');
  const load = useCallback(
    (after?: string) => {
      setProblem('');
      const query: ReviewQuery = { limit: PAGE, ...(state ? { state } : {}), ...(after ? { after } : {}) };
      withdrawalsApi.queue(query).then(
        (page) => {
          setItems((old) => (after ? [...old, ...page.items] : page.items));
          setNext(page.next);
          setSummary({ waiting: page.waiting, threshold: page.secondApprovalUsdCents });
          if (!after) setSelected(new Set());
        },
        (e: unknown) => setProblem(problemOf(e)),
      );
    },
    [state],
  );
  useEffect(() => load(), [load]);
  const approveSelected = () =>
    withdrawalsApi.bulkApprove([...selected]).then(
      (r) => {
        setBulk(r.results);
        load();
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  return (
    <section className="card wide" data-testid="ops-withdrawals">
      <h2>Withdrawals in review</h2>
      <div className="row">
        <span data-testid="ops-wd-waiting">
          {summary.waiting} waiting · two finance approvals above {usdOf(summary.threshold)}
        </span>
        <label>
          Show{' '}
          <select value={state} onChange={(e) => setState(e.target.value as ReviewQuery['state'] | '')}>
            <option value="">all in review</option>
            <option value="in_review">in review</option>
            <option value="awaiting_second_approval">awaiting second approval</option>
          </select>
        </label>
        <button type="button" onClick={() => load()} data-testid="ops-wd-refresh">
          Refresh
        </button>
        {finance ? (
          <button type="button" disabled={selected.size === 0} onClick={approveSelected} data-testid="ops-wd-bulk">
            Approve selected ({selected.size})
          </button>
        ) : null}
      </div>
      {bulk.length > 0 ? (
        <ul data-testid="ops-wd-bulk-result">
          {bulk.map((r) => (
            <li key={r.id} data-outcome={r.outcome}>
              <code>{r.id.slice(0, 8)}</code> {r.outcome.replaceAll('_', ' ')}
              {r.message ? `: ${r.message}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? <p className="problem">{problem}</p> : null}
      <table>
        <thead>
          <tr>
            <th />
            <th>Placed / user</th>
            <th>Amount</th>
            <th>Review</th>
            <th>Risk signals</th>
            <th>Decide</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <Row
              key={item.id}
              item={item}
              finance={finance}
              selected={selected.has(item.id)}
              onSelect={(on) =>
                setSelected((old) => {
                  const s = new Set(old);
                  if (on) s.add(item.id);
                  else s.delete(item.id);
                  return s;
                })
              }
              reload={() => load()}
            />
          ))}
        </tbody>
      </table>
      {items.length === 0 ? <p className="muted">Nothing waits for review.</p> : null}
      {next ? (
        <button type="button" onClick={() => load(next)} data-testid="ops-wd-more">
          Load more
        </button>
      ) : null}
    </section>
  );
}
