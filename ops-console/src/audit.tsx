import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type AuditEvent, type AuditQuery, type ChainState, opsApi, problemOf } from './api.ts';

const PAGE = 50;

/** `datetime-local` (the operator's time zone) to ISO, or nothing. */
const isoOf = (local: string) => (local === '' ? undefined : new Date(local).toISOString());

function Chain() {
  const [state, setState] = useState<ChainState | null>(null);
  const [problem, setProblem] = useState('');
  const check = useCallback(() => {
    setState(null);
    opsApi.auditChain().then(setState, (e: unknown) => setProblem(problemOf(e)));
  }, []);
  useEffect(check, [check]);
  return (
    <section className="row" data-testid="ops-audit-chain">
      <strong>Hash chain:</strong>
      {state === null ? (
        <span className="muted">verifying…</span>
      ) : state.ok ? (
        <span data-state="ok">
          intact — {state.rows} events, head #{state.head.seq} <code>{state.head.hash.slice(0, 16)}…</code>
        </span>
      ) : (
        <span className="problem" data-state="broken">
          BROKEN at link #{state.brokenAt?.chainSeq}
          {state.brokenAt?.id ? ` (event id ${state.brokenAt.id})` : ''}: {state.brokenAt?.reason}
        </span>
      )}
      <button type="button" onClick={check}>
        Verify again
      </button>
      {problem ? <span className="problem">{problem}</span> : null}
    </section>
  );
}

/** Admin and compliance: the audit log's chain state, and a search by actor, target, event and time. */
export function Audit() {
  const [form, setForm] = useState({ actor: '', target: '', event: '', from: '', to: '' });
  const [items, setItems] = useState<AuditEvent[]>([]);
  const [more, setMore] = useState(false);
  const [problem, setProblem] = useState('');
  const queryOf = (before?: string): AuditQuery => {
    const query: AuditQuery = { limit: PAGE };
    if (form.actor.trim()) query.actor = form.actor.trim();
    if (form.target.trim()) query.target = form.target.trim();
    if (form.event.trim()) query.event = form.event.trim();
    const from = isoOf(form.from);
    const to = isoOf(form.to);
    if (from) query.from = from;
    if (to) query.to = to;
    if (before) query.before = before;
    return query;
  };
  const search = (before?: string) => {
    setProblem('');
    opsApi.auditEvents(queryOf(before)).then(
      (r) => {
        setItems((old) => (before ? [...old, ...r.items] : r.items));
        setMore(r.items.length === PAGE);
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  };
  useEffect(() => search(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search();
  };
  const field = (key: keyof typeof form, label: string, type = 'text') => (
    <label>
      {label}{' '}
      <input
        type={type}
        value={form[key]}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        data-testid={`ops-audit-${key}`}
      />
    </label>
  );
  return (
    <main className="card wide" data-testid="ops-audit">
      <h2>Audit log</h2>
      <Chain />
      <form className="row" onSubmit={submit}>
        {field('actor', 'Actor (operator)')}
        {field('target', 'Target (user id, operator id or name)')}
        {field('event', 'Event')}
        {field('from', 'From', 'datetime-local')}
        {field('to', 'To', 'datetime-local')}
        <button type="submit" data-testid="ops-audit-search">
          Search
        </button>
      </form>
      {problem ? <p className="problem">{problem}</p> : null}
      <table data-testid="ops-audit-events">
        <thead>
          <tr>
            <th>#</th>
            <th>When</th>
            <th>Event</th>
            <th>User</th>
            <th>IP</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.id}>
              <td title={e.hash}>{e.chainSeq}</td>
              <td>{new Date(e.occurredAt).toLocaleString()}</td>
              <td>{e.event}</td>
              <td>{e.userId ?? ''}</td>
              <td>{e.ip ?? ''}</td>
              <td>
                <code>{JSON.stringify(e.details)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more ? (
        <button type="button" onClick={() => search(items.at(-1)?.id)}>
          Older
        </button>
      ) : null}
    </main>
  );
}
