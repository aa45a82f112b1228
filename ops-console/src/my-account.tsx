import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { problemOf } from './api.ts';
import { addPasskey, listPasskeys, type OperatorPasskey, passkeysSupported, removePasskey } from './passkeys.ts';

/**
 * The operator's own page: their passkeys (list, add, remove). Adding one asks for a code of the
 * authenticator app unless the session was opened minutes ago (right after enrolment or sign-in).
 */
export function MyAccount({ name }: { name: string }) {
  const [items, setItems] = useState<OperatorPasskey[]>([]);
  const [label, setLabel] = useState('Security key');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState('');
  const [notice, setNotice] = useState('');
  const reload = useCallback(() => {
    listPasskeys().then(
      (r) => setItems(r.passkeys),
      (e: unknown) => setProblem(problemOf(e)),
    );
  }, []);
  useEffect(reload, []);
  const add = (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    addPasskey(label.trim(), code.trim()).then(
      (p) => {
        setNotice(`Passkey "${p.name}" added.`);
        setCode('');
        reload();
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  };
  const remove = (id: string) => removePasskey(id).then(reload, (e: unknown) => setProblem(problemOf(e)));
  return (
    <section className="card page" aria-labelledby="my-account-title" data-testid="ops-my-account">
      <h2 id="my-account-title">My account: {name}</h2>
      <h3>Passkeys</h3>
      <p className="muted">
        A passkey signs you in to this console alone (no password, no code) and cannot be used on another site.
      </p>
      {items.length === 0 ? (
        <p className="muted">No passkey yet.</p>
      ) : (
        <table data-testid="ops-passkeys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.id} data-passkey={p.name}>
                <td>{p.name}</td>
                <td>{new Date(p.createdAt).toLocaleString()}</td>
                <td>{p.lastUsedAt ? new Date(p.lastUsedAt).toLocaleString() : 'never'}</td>
                <td>
                  {p.suspended
                    ? 'void (counter went backwards, or added before your latest enrolment): remove it'
                    : 'active'}
                </td>
                <td>
                  <button type="button" onClick={() => remove(p.id)} aria-label={`Remove passkey ${p.name}`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {passkeysSupported() ? (
        <form className="row" onSubmit={add} data-testid="ops-add-passkey">
          <label>
            Name
            <input
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              maxLength={64}
              data-testid="ops-passkey-name"
            />
          </label>
          <label>
            Authenticator code (not needed within 5 minutes of signing in)
            <input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
              data-testid="ops-passkey-code"
            />
          </label>
          <button type="submit" data-testid="ops-passkey-add">
            Add a passkey
          </button>
        </form>
      ) : (
        <p className="muted">This browser cannot use passkeys.</p>
      )}
      {notice ? (
        <p role="status" data-testid="ops-passkey-notice">
          {notice}
        </p>
      ) : null}
      {problem ? (
        <p className="problem" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
