import { type ReactNode, useState } from 'react';
import { problemOf } from './api.ts';
import { Masked } from './masked.tsx';
import { amountText, type LedgerItem, type RevealBody, type UserPageData, usersApi } from './users-api.ts';

const time = (iso: string) => new Date(iso).toLocaleString();

function Amount({ minor, asset, coins }: { minor: string; asset: string; coins: UserPageData['coins'] }) {
  const { shown, exact } = amountText(minor, asset, coins);
  return <span title={exact}>{shown}</span>;
}

/** A titled table of rows, "none" when empty; a closed <details> so a long page stays scannable. */
function Section<T>({
  title,
  rows,
  head,
  row,
  open = false,
  testId,
}: {
  title: string;
  rows: readonly T[];
  head: string[];
  row: (r: T) => ReactNode[];
  open?: boolean;
  testId: string;
}) {
  return (
    <details open={open} data-testid={testId}>
      <summary>
        {title} ({rows.length})
      </summary>
      {rows.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {row(r).map((cell, j) => (
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

/** Compliance: the user's ledger entries, newest first, 50 a page (keyset: "Older" continues). */
function Ledger({ userId, coins }: { userId: string; coins: UserPageData['coins'] }) {
  const [items, setItems] = useState<LedgerItem[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [problem, setProblem] = useState('');
  const more = () =>
    usersApi.ledger(userId, next ?? undefined).then(
      (page) => {
        setItems((all) => [...all, ...page.items]);
        setNext(page.next);
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  return (
    <details
      data-testid="ops-user-ledger"
      onToggle={(e) => (e.currentTarget.open && next === undefined ? more() : null)}
    >
      <summary>Ledger entries</summary>
      {problem ? <p className="problem">{problem}</p> : null}
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>Kind</th>
            <th>Account</th>
            <th>Amount</th>
            <th>Balance after</th>
            <th>At</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.id}>
              <td>{e.id}</td>
              <td>{e.kind}</td>
              <td>{e.account.replace('user_', '')}</td>
              <td>
                <Amount minor={e.amountMinor} asset={e.asset} coins={coins} />
              </td>
              <td>
                <Amount minor={e.balanceAfterMinor} asset={e.asset} coins={coins} />
              </td>
              <td>{time(e.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next ? (
        <button type="button" onClick={more}>
          Older
        </button>
      ) : null}
    </details>
  );
}

/** Balances, sessions, payout methods, activity, tickets and (compliance) the ledger. */
export function UserActivity({
  page,
  compliance,
  revealed,
  onReveal,
}: {
  page: UserPageData;
  compliance: boolean;
  revealed: Record<string, string>;
  onReveal: (body: Omit<RevealBody, 'reason'>, label: string) => void;
}) {
  const coins = page.coins;
  const amount = (minor: string, asset: string) => <Amount minor={minor} asset={asset} coins={coins} />;
  return (
    <>
      <Section
        title="Balances"
        open
        testId="ops-user-balances"
        rows={page.balances}
        head={['Asset', 'Available', 'Locked', 'Rewards']}
        row={(b) => [
          b.asset,
          amount(b.availableMinor, b.asset),
          amount(b.lockedMinor, b.asset),
          amount(b.rewardsMinor, b.asset),
        ]}
      />
      <Section
        title="Sessions"
        open
        testId="ops-user-sessions"
        rows={page.sessions}
        head={['Started', 'Last seen', 'Browser', 'IP']}
        row={(s) => [
          time(s.createdAt),
          `${time(s.lastSeenAt)}${s.waiting ? ' (waiting)' : ''}`,
          s.userAgent ?? '—',
          <Masked
            key="ip"
            value={s.ip}
            revealed={revealed[`session_ip:${s.id}`]}
            canReveal={compliance}
            onReveal={() => onReveal({ field: 'session_ip', itemId: s.id }, 'Reveal the session’s IP address')}
            testId={`ops-user-ip-${s.id}`}
          />,
        ]}
      />
      <Section
        title="Payout methods"
        testId="ops-user-methods"
        rows={page.paymentMethods}
        head={['Kind', 'Active', 'Details']}
        row={(m) => [
          m.kind,
          m.active ? 'yes' : 'no',
          <Masked
            key="shown"
            value={Object.entries(m.shown)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}
            revealed={revealed[`payment_method:${m.id}`]}
            canReveal={compliance}
            onReveal={() => onReveal({ field: 'payment_method', itemId: m.id }, 'Reveal the payout method')}
            testId={`ops-user-method-${m.id}`}
          />,
        ]}
      />
      <Section
        title="Deposits"
        testId="ops-user-deposits"
        rows={page.deposits}
        head={['At', 'Amount', 'Network', 'State', 'Transaction']}
        row={(d) => [
          time(d.createdAt),
          amount(d.amountMinor, d.coin),
          d.network,
          d.state,
          <code key="tx">{d.txHash}</code>,
        ]}
      />
      <Section
        title="Withdrawals"
        testId="ops-user-withdrawals"
        rows={page.withdrawals}
        head={['At', 'Amount', 'Fee', 'To', 'State', 'Transaction']}
        row={(w) => [
          time(w.createdAt),
          amount(w.amountMinor, w.coin),
          amount(w.feeMinor, w.coin),
          <code key="to">{w.address}</code>,
          `${w.state}${w.reason ? ` (${w.reason})` : ''}`,
          w.txHash ? <code key="tx">{w.txHash}</code> : '—',
        ]}
      />
      <Section
        title="Conversions"
        testId="ops-user-conversions"
        rows={page.conversions}
        head={['At', 'Gave', 'Got', 'Fee']}
        row={(c) => [
          time(c.createdAt),
          amount(c.amountMinor, c.fromAsset),
          amount(c.receiveMinor, c.toAsset),
          amount(c.feeMinor, c.fromAsset),
        ]}
      />
      <Section
        title="Exchange orders"
        testId="ops-user-exchange"
        rows={page.exchangeOrders}
        head={['At', 'Send', 'Receive', 'State']}
        row={(o) => [
          time(o.createdAt),
          amount(o.sendAmountMinor, o.sendCoin),
          amount(o.receiveAmountMinor, o.receiveCoin),
          o.state,
        ]}
      />
      <Section
        title="Buy and sell orders"
        testId="ops-user-ramp"
        rows={page.rampOrders}
        head={['At', 'Side', 'Crypto', 'Fiat (minor)', 'State']}
        row={(o) => [
          time(o.createdAt),
          o.side,
          amount(o.cryptoAmountMinor, o.coin),
          `${o.fiatAmountMinor} ${o.fiat}`,
          `${o.state}${o.reason ? ` (${o.reason})` : ''}`,
        ]}
      />
      <Section
        title="Tickets"
        testId="ops-user-tickets"
        rows={page.tickets}
        head={['Opened', 'Updated', 'State', 'Transaction']}
        row={(t) => [time(t.createdAt), time(t.updatedAt), t.state, t.txRef ?? '—']}
      />
      {compliance ? <Ledger userId={page.profile.id} coins={coins} /> : null}
    </>
  );
}
