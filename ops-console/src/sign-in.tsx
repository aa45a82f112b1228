import { type FormEvent, useState } from 'react';
import { opsApi, problemOf } from './api.ts';

export function SignIn({ onSignedIn }: { onSignedIn: (name: string) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    opsApi.signIn(name.trim(), password).then(
      (s) => onSignedIn(s.operator?.name ?? name),
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
      {problem ? <p className="problem">{problem}</p> : null}
      <button type="submit" data-testid="ops-sign-in-submit">
        Sign in
      </button>
    </form>
  );
}
