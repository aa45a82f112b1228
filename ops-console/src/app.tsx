import { useEffect, useState } from 'react';
import { Announcements } from './announcements.tsx';
import { opsApi, type Role } from './api.ts';
import { Audit } from './audit.tsx';
import { Chats } from './chats.tsx';
import { Dashboard } from './dashboard.tsx';
import { Enrol, enrolmentTokenOfPage } from './enrol.tsx';
import { MyAccount } from './my-account.tsx';
import { Operators } from './operators.tsx';
import { type Operator, SignIn } from './sign-in.tsx';
import { SupportMessages } from './support-messages.tsx';
import { Tickets } from './tickets.tsx';
import { UserLocksLookup } from './user-locks.tsx';
import { Users } from './users.tsx';
import { Withdrawals } from './withdrawals.tsx';

/**
 * The console's pages and the roles that open them (the server decides; this only hides what a role
 * cannot use: each /api/ops route declares its roles and refuses the others).
 */
const PAGES = [
  { id: 'support', label: 'Support', roles: ['support'] },
  { id: 'withdrawals', label: 'Withdrawals', roles: ['finance', 'compliance'] },
  { id: 'users', label: 'Users', roles: ['support', 'compliance'] },
  { id: 'dashboard', label: 'Dashboard', roles: ['finance'] },
  { id: 'operators', label: 'Operators', roles: ['admin'] },
  { id: 'audit', label: 'Audit', roles: ['admin', 'compliance'] },
  { id: 'me', label: 'My account', roles: ['support', 'compliance', 'finance', 'admin'] },
] as const satisfies readonly { id: string; label: string; roles: readonly Role[] }[];
type PageId = (typeof PAGES)[number]['id'];

function Page({ id, operator }: { id: PageId; operator: Operator }) {
  if (id === 'operators') return <Operators self={operator.name} />;
  if (id === 'audit') return <Audit />;
  if (id === 'withdrawals') return <Withdrawals roles={operator.roles} />;
  if (id === 'users') return <Users compliance={operator.roles.includes('compliance')} />;
  if (id === 'dashboard') return <Dashboard />;
  if (id === 'me') return <MyAccount name={operator.name} />;
  return (
    <>
      <Announcements />
      <div className="columns">
        <Chats />
        <Tickets />
        <SupportMessages />
        <UserLocksLookup />
      </div>
    </>
  );
}

/** Signed in as an operator (the console's own session), the enrolment page of a link, or the sign-in form. */
export function App() {
  const [operator, setOperator] = useState<Operator | null | undefined>(undefined);
  const [enrolToken, setEnrolToken] = useState(enrolmentTokenOfPage);
  const [page, setPage] = useState<PageId | null>(null);
  useEffect(() => {
    opsApi.session().then(
      (s) => setOperator(s.operator ?? null),
      () => setOperator(null),
    );
  }, []);
  if (enrolToken)
    return (
      <Enrol
        token={enrolToken}
        onEnrolled={(o) => {
          setEnrolToken(null);
          setOperator(o);
        }}
      />
    );
  if (operator === undefined) return <p className="muted">Loading…</p>;
  if (operator === null) return <SignIn onSignedIn={setOperator} />;
  const signOut = () => void opsApi.signOut().finally(() => setOperator(null));
  const open = PAGES.filter((p) => p.roles.some((r: Role) => operator.roles.includes(r)));
  const current = open.find((p) => p.id === page) ?? open[0];
  return (
    <div className="console">
      <header className="bar">
        <strong>CW Wallet · operator console</strong>
        <nav className="tabs row" aria-label="Console pages">
          {open.map((p) => (
            <button
              key={p.id}
              type="button"
              aria-current={p.id === current?.id ? 'page' : undefined}
              onClick={() => setPage(p.id)}
              data-testid={`ops-tab-${p.id}`}
            >
              {p.label}
            </button>
          ))}
        </nav>
        <span>
          {operator.name} <span data-testid="ops-roles">({operator.roles.join(', ') || 'no role'})</span>{' '}
          <button type="button" onClick={signOut} data-testid="ops-sign-out">
            Sign out
          </button>
        </span>
      </header>
      {current ? (
        <Page id={current.id} operator={operator} />
      ) : (
        <p className="muted">Your roles open no page of this console yet.</p>
      )}
    </div>
  );
}
