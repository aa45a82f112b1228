import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, useEffect, useState } from 'react';
import { opsApi, problemOf } from './api.ts';
import type { Operator } from './sign-in.tsx';

let pageToken: string | null | undefined;

/**
 * The enrolment token in this page's fragment (#enrol=…), if any. Read once and kept in memory: the
 * fragment leaves the address bar and the history at once (review 32a, finding 12), so an abandoned
 * set-up leaves no live link behind in the browser.
 */
export function enrolmentTokenOfPage(): string | null {
  if (pageToken === undefined) {
    const match = /^#enrol=([A-Za-z0-9_-]{22})$/.exec(window.location.hash);
    pageToken = match?.[1] ?? null;
    if (match) window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return pageToken;
}

/**
 * First visit through the one-time link: scan the code into an authenticator app, choose the password,
 * confirm with a first code. The server signs the operator in when both are set; in the next 5 minutes
 * "My account" adds a passkey without another code.
 */
export function Enrol({ token, onEnrolled }: { token: string; onEnrolled: (operator: Operator) => void }) {
  const [setup, setSetup] = useState<{ name: string; secret: string; uri: string } | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState('');
  useEffect(() => {
    opsApi.enrolStart(token).then(setSetup, (e: unknown) => setProblem(problemOf(e)));
  }, [token]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    opsApi.enrolFinish(token, password, code.trim()).then(
      (s) => {
        // The link is spent: it must not stay in the address bar or the history.
        window.history.replaceState(null, '', window.location.pathname);
        onEnrolled(s.operator ?? { name: setup?.name ?? '', roles: [] });
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  };
  return (
    <form className="card signin" onSubmit={submit} data-testid="ops-enrol">
      <h1>Operator set-up</h1>
      {setup ? (
        <>
          <p>
            Welcome, <strong>{setup.name}</strong>. Add this account to your authenticator app, then choose a password.
          </p>
          <QRCodeSVG
            value={setup.uri}
            size={180}
            role="img"
            aria-label="QR code of your authenticator key (the key is also written below)"
            data-testid="ops-enrol-qr"
          />
          <p className="muted">
            Or type the key: <code data-testid="ops-enrol-secret">{setup.secret}</code>
          </p>
          <label>
            New password
            <input
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="new-password"
              data-testid="ops-enrol-password"
            />
          </label>
          <label>
            Code from the app
            <input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
              data-testid="ops-enrol-code"
            />
          </label>
          <button type="submit" data-testid="ops-enrol-submit">
            Finish set-up
          </button>
        </>
      ) : null}
      {problem ? <p className="problem">{problem}</p> : null}
    </form>
  );
}
