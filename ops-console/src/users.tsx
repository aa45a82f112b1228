import { type FormEvent, useState } from 'react';
import { problemOf } from './api.ts';
import { UserPage } from './user-page.tsx';
import { type SearchHit, usersApi } from './users-api.ts';

const MATCHED: Record<SearchHit['matchedBy'], string> = {
  user_id: 'user id',
  email: 'e-mail',
  username: 'user name',
  deposit_address: 'deposit address',
  tx_hash: 'transaction hash',
};

/**
 * The Users page (issue 32): find a user by id, e-mail, user name, deposit address or transaction
 * hash, then their page. Support sees it masked; compliance also reveals (audited) and acts.
 */
export function Users({ compliance }: { compliance: boolean }) {
  const [typed, setTyped] = useState('');
  const [hits, setHits] = useState<{ items: SearchHit[]; more: boolean } | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = typed.trim();
    if (q === '') return;
    setProblem('');
    usersApi.search(q).then(
      (found) => {
        setHits(found);
        setUserId(found.items.length === 1 ? (found.items[0]?.userId ?? null) : null);
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  };
  return (
    <section className="card wide" data-testid="ops-users">
      <h2>Users</h2>
      <form onSubmit={submit} className="row">
        <input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder="User id, e-mail, user name, deposit address or transaction hash"
          aria-label="Find a user"
          size={60}
          data-testid="ops-users-query"
        />
        <button type="submit" data-testid="ops-users-search">
          Find
        </button>
      </form>
      {problem ? <p className="problem">{problem}</p> : null}
      {hits && hits.items.length === 0 ? <p data-testid="ops-users-none">No user matches.</p> : null}
      {hits && hits.items.length > 1 ? (
        <table data-testid="ops-users-hits">
          <thead>
            <tr>
              <th>User name</th>
              <th>E-mail</th>
              <th>Found by</th>
              <th>Since</th>
            </tr>
          </thead>
          <tbody>
            {hits.items.map((h) => (
              <tr key={h.userId}>
                <td>
                  <button type="button" className="link" onClick={() => setUserId(h.userId)}>
                    {h.username}
                  </button>
                </td>
                <td>{h.email}</td>
                <td>{MATCHED[h.matchedBy]}</td>
                <td>{new Date(h.createdAt).toLocaleDateString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {hits?.more ? <p className="muted">More users match; showing the first 20. Narrow the search.</p> : null}
      {userId ? <UserPage key={userId} userId={userId} compliance={compliance} /> : null}
    </section>
  );
}
