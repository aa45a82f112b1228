import { api, unwrap } from '@cw/shared-state/api';
import { type FormEvent, useEffect, useState } from 'react';
import { problemOf } from './api.ts';

/** GET /api/ops/users/{user}/security-state: by user id, e-mail address or user name. */
const securityState = (user: string) =>
  unwrap(api.GET('/api/ops/users/{user}/security-state', { params: { path: { user } } }));
type SecurityState = Awaited<ReturnType<typeof securityState>>;

const REASONS: Record<string, string> = {
  password_reset: 'password reset',
  password_changed: 'password changed',
  fund_password_changed: 'fund password changed',
  totp_enabled: 'authenticator app added',
  totp_disabled: 'authenticator app removed',
  passkey_added: 'passkey added',
  passkey_removed: 'passkey removed',
  passkey_counter_regressed: 'cloned passkey suspected',
  email_changed: 'e-mail address changed',
};
const time = (iso: string) => new Date(iso).toLocaleString();

/** What the state says, one line per lock; "no locks" when none runs. */
function LockLines({ state }: { state: SecurityState }) {
  const lines: { key: string; text: string }[] = [];
  const hold = state.outflowHold;
  if (hold)
    lines.push({
      key: 'hold',
      text: `Withdrawals and sends held until ${time(hold.until)} (${REASONS[hold.reason] ?? hold.reason}, ${time(hold.since)})`,
    });
  if (state.freeze.frozen)
    lines.push({
      key: 'freeze',
      text: state.freeze.byOperator
        ? 'Frozen by compliance (see the Users page)'
        : state.freeze.thawsAt
          ? `Frozen by the owner; unfreeze takes effect ${time(state.freeze.thawsAt)}`
          : `Frozen by the owner${state.freeze.frozenAt ? ` since ${time(state.freeze.frozenAt)}` : ''}`,
    });
  if (state.allowlist.on)
    lines.push({
      key: 'allowlist',
      text: state.allowlist.offAt
        ? `Withdrawal allowlist on; turns off ${time(state.allowlist.offAt)} (pending)`
        : 'Withdrawal allowlist on',
    });
  if (lines.length === 0) return <p data-testid="ops-locks-none">No locks.</p>;
  return (
    <ul className="plain">
      {lines.map((l) => (
        <li key={l.key} data-testid={`ops-lock-${l.key}`}>
          {l.text}
        </li>
      ))}
    </ul>
  );
}

/**
 * A user's active locks, where an operator sees the user (a ticket, a chat). Read only: support cannot
 * lift a hold, a freeze or a pending allowlist turn-off (the server has no such route).
 */
export function UserLocks({ user }: { user: string }) {
  const [state, setState] = useState<SecurityState | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    setState(null);
    setProblem('');
    securityState(user).then(setState, (e: unknown) => setProblem(problemOf(e)));
  }, [user]);
  return (
    <div className="locks" data-testid="ops-user-locks">
      <strong>Locks</strong>
      {problem ? <p className="problem">{problem}</p> : null}
      {state ? <LockLines state={state} /> : null}
      {state ? <p className="hint">Support cannot lift these early; they end on their own.</p> : null}
    </div>
  );
}

/** Looks a user up by id, e-mail or user name and shows their locks. */
export function UserLocksLookup() {
  const [typed, setTyped] = useState('');
  const [user, setUser] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() !== '') setUser(typed.trim());
  };
  return (
    <section className="card" data-testid="ops-locks-lookup">
      <h2>User locks</h2>
      <form onSubmit={submit}>
        <input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder="User id, e-mail or user name"
          data-testid="ops-locks-user"
        />{' '}
        <button type="submit" data-testid="ops-locks-show">
          Show
        </button>
      </form>
      {user ? <UserLocks user={user} /> : null}
    </section>
  );
}
