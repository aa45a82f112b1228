import { useCallback, useEffect, useState } from 'react';
import { problemOf } from './api.ts';
import { Masked } from './masked.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
import { UserActivity } from './user-activity.tsx';
import { type RevealBody, type UserAction, type UserPageData, usersApi } from './users-api.ts';

const ACTIONS: { action: UserAction; label: string; shown: (p: UserPageData) => boolean }[] = [
  { action: 'freeze', label: 'Freeze account', shown: (p) => p.security.operatorFreeze === null },
  { action: 'unfreeze', label: 'Lift compliance freeze', shown: (p) => p.security.operatorFreeze !== null },
  { action: 'end_sessions', label: 'End all sessions', shown: () => true },
  { action: 'hold_withdrawals', label: 'Hold withdrawals', shown: (p) => p.security.withdrawalHold === null },
  { action: 'release_withdrawals', label: 'Lift withdrawal hold', shown: (p) => p.security.withdrawalHold !== null },
];

type Ask =
  | { kind: 'reveal'; body: Omit<RevealBody, 'reason'>; label: string }
  | { kind: 'action'; action: UserAction; label: string };

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function SecurityState({ page }: { page: UserPageData }) {
  const s = page.security;
  return (
    <ul className="plain" data-testid="ops-user-security">
      <li>
        Second factors: {s.factors.totp ? 'authenticator app' : 'no authenticator app'}, {s.factors.passkeys} passkey(s)
        {s.factors.passkeysSuspended ? `, ${s.factors.passkeysSuspended} suspended` : ''}
      </li>
      <li data-testid="ops-user-freeze">
        {s.operatorFreeze
          ? `Frozen by compliance (${s.operatorFreeze.by}, ${time(s.operatorFreeze.since)}): ${s.operatorFreeze.reason}`
          : s.freeze.frozen
            ? `Frozen by the owner since ${time(s.freeze.frozenAt)}${s.freeze.thawsAt ? `; thaws ${time(s.freeze.thawsAt)}` : ''}`
            : 'Not frozen'}
      </li>
      <li data-testid="ops-user-hold">
        {s.withdrawalHold
          ? `Withdrawals held by compliance (${s.withdrawalHold.by}, ${time(s.withdrawalHold.since)}): ${s.withdrawalHold.reason}`
          : 'No compliance withdrawal hold'}
      </li>
      {s.outflowHold ? (
        <li>
          Security-change hold ({s.outflowHold.reason}) until {time(s.outflowHold.until)}
        </li>
      ) : null}
      <li>
        Allowlist: {s.allowlist.on ? 'on' : 'off'}
        {s.allowlist.offAt ? ` (turns off ${time(s.allowlist.offAt)})` : ''}
      </li>
    </ul>
  );
}

/** One user's page: profile, security state and actions, then activity (user-activity.tsx). */
export function UserPage({ userId, compliance }: { userId: string; compliance: boolean }) {
  const [page, setPage] = useState<UserPageData | null>(null);
  const [problem, setProblem] = useState('');
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [ask, setAsk] = useState<Ask | null>(null);
  const [done, setDone] = useState('');
  const load = useCallback(() => {
    usersApi.page(userId).then(setPage, (e: unknown) => setProblem(problemOf(e)));
  }, [userId]);
  useEffect(load, [load]);
  if (problem) return <p className="problem">{problem}</p>;
  if (!page) return <p className="muted">Loading…</p>;
  const revealKey = (b: Omit<RevealBody, 'reason'>) => `${b.field}:${b.itemId ?? ''}`;
  const askReveal = (body: Omit<RevealBody, 'reason'>, label: string) => setAsk({ kind: 'reveal', body, label });
  const run = async (reason: string) => {
    if (!ask) return;
    if (ask.kind === 'reveal') {
      const r = await usersApi.reveal(userId, { ...ask.body, reason });
      setRevealed((all) => ({ ...all, [revealKey(ask.body)]: r.value }));
      return;
    }
    const r = await usersApi.act(userId, ask.action, reason);
    setDone(
      `${ask.label}: ${r.changed ? 'done' : 'nothing to change'}${r.sessionsEnded ? `, ${r.sessionsEnded} session(s) ended` : ''}${r.cancelledWithdrawals ? `, ${r.cancelledWithdrawals} withdrawal(s) cancelled` : ''}.`,
    );
    load();
  };
  const p = page.profile;
  return (
    <article data-testid="ops-user-page" aria-label={`User ${p.username}`}>
      <h3>
        {p.username} <small className="muted">{p.id}</small>
      </h3>
      <dl className="row">
        <dt>E-mail</dt>
        <dd>
          <Masked
            value={p.email}
            revealed={revealed['email:']}
            canReveal={compliance}
            onReveal={() => askReveal({ field: 'email' }, 'Reveal the e-mail address')}
            testId="ops-user-email"
          />
        </dd>
        <dt>Name</dt>
        <dd>
          <Masked
            value={p.nickname}
            revealed={revealed['nickname:']}
            canReveal={compliance}
            onReveal={() => askReveal({ field: 'nickname' }, 'Reveal the name')}
            testId="ops-user-nickname"
          />
        </dd>
        <dt>Country</dt>
        <dd>{p.country}</dd>
        <dt>Since</dt>
        <dd>{time(p.createdAt)}</dd>
      </dl>
      <h4>Security</h4>
      <SecurityState page={page} />
      {compliance ? (
        <div className="row" data-testid="ops-user-actions">
          {ACTIONS.filter((a) => a.shown(page)).map((a) => (
            <button
              key={a.action}
              type="button"
              onClick={() => setAsk({ kind: 'action', action: a.action, label: a.label })}
              data-testid={`ops-user-action-${a.action}`}
            >
              {a.label}
            </button>
          ))}
        </div>
      ) : null}
      {done ? (
        <p role="status" data-testid="ops-user-done">
          {done}
        </p>
      ) : null}
      <UserActivity
        page={page}
        compliance={compliance}
        revealed={revealed}
        onReveal={(body, label) => askReveal(body, label)}
      />
      {ask ? (
        <ReasonDialog
          title={ask.label}
          confirm={ask.kind === 'reveal' ? 'Reveal' : ask.label}
          onClose={() => setAsk(null)}
          run={run}
        />
      ) : null}
    </article>
  );
}
