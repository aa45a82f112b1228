import { type FormEvent, useState } from 'react';
import { opsApi, problemOf, type Role } from './api.ts';
import { passkeysSupported, signInWithPasskey } from './passkeys.ts';

export interface Operator {
  name: string;
  roles: Role[];
}

/**
 * A passkey alone (phishing-resistant), or name, password and a code of the authenticator app: no
 * operator signs in with a password alone.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (operator: Operator) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    opsApi.signIn(name.trim(), password, code.trim()).then(
      (s) => onSignedIn(s.operator ?? { name, roles: [] }),
      (error: unknown) => setProblem(problemOf(error)),
    );
  };
  const withPasskey = () => {
    setProblem('');
    signInWithPasskey().then(
      (s) => onSignedIn(s.operator ?? { name: '', roles: [] }),
      (error: unknown) => setProblem(problemOf(error)),
    );
  };
  return (
    <form className="card signin" onSubmit={submit} data-testid="ops-sign-in">
      <h1>Operator sign-in</h1>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="username" data-testid="ops-name" />
      </label>
      <label>
        Password
        <input
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          data-testid="ops-password"
        />
      </label>
      <label>
        Authenticator code
        <input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          inputMode="numeric"
          pattern="[0-9]{6}"
          maxLength={6}
          autoComplete="one-time-code"
          data-testid="ops-totp"
        />
      </label>
      {problem ? (
        <p className="problem" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" data-testid="ops-sign-in-submit">
        Sign in
      </button>
      {passkeysSupported() ? (
        <button type="button" onClick={withPasskey} data-testid="ops-passkey-sign-in">
          Sign in with a passkey
        </button>
      ) : null}
    </form>
  );
}
