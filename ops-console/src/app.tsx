import { useEffect, useState } from 'react';
import { Announcements } from './announcements.tsx';
import { opsApi } from './api.ts';
import { Chats } from './chats.tsx';
import { SignIn } from './sign-in.tsx';
import { SupportMessages } from './support-messages.tsx';
import { Tickets } from './tickets.tsx';
import { UserLocksLookup } from './user-locks.tsx';

/** Signed in as an operator (the console's own session), or the sign-in form. */
export function App() {
  const [operator, setOperator] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    opsApi.session().then(
      (s) => setOperator(s.operator?.name ?? null),
      () => setOperator(null),
    );
  }, []);
  if (operator === undefined) return <p className="muted">Loading…</p>;
  if (operator === null) return <SignIn onSignedIn={setOperator} />;
  const signOut = () => void opsApi.signOut().finally(() => setOperator(null));
  return (
    <div className="console">
      <header className="bar">
        <strong>CW Wallet · operator console</strong>
        <span>
          {operator}{' '}
          <button type="button" onClick={signOut} data-testid="ops-sign-out">
            Sign out
          </button>
        </span>
      </header>
      <Announcements />
      <div className="columns">
        <Chats />
        <Tickets />
        <SupportMessages />
        <UserLocksLookup />
      </div>
    </div>
  );
}
