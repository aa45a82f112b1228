import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { enrolmentLinkOf, type OpsOperator, opsApi, problemOf, ROLES, type Role } from './api.ts';

/**
 * Roles an admin can hand out here; finance, admin and compliance come from the ops CLI only (the
 * server refuses them too: one admin must not mint a second admin identity, review 32a finding 4).
 */
const GRANTABLE: readonly Role[] = ['support'];

function RolePicker({ value, onChange, testId }: { value: Role[]; onChange: (r: Role[]) => void; testId: string }) {
  return (
    <span className="row" data-testid={testId}>
      {ROLES.map((role) => (
        <label key={role}>
          <input
            type="checkbox"
            checked={value.includes(role)}
            disabled={!GRANTABLE.includes(role) && !value.includes(role)}
            onChange={(e) => onChange(e.target.checked ? [...value, role] : value.filter((r) => r !== role))}
            data-role={role}
          />{' '}
          {role}
        </label>
      ))}
    </span>
  );
}

function OperatorRow({
  item,
  self,
  reload,
  onLink,
}: {
  item: OpsOperator;
  self: boolean;
  reload: () => void;
  onLink: (name: string, token: string) => void;
}) {
  const [roles, setRoles] = useState<Role[]>(item.roles);
  const [problem, setProblem] = useState('');
  const act = (work: Promise<unknown>) => work.then(reload, (e: unknown) => setProblem(problemOf(e)));
  const changed = roles.slice().sort().join() !== item.roles.slice().sort().join();
  return (
    <tr data-name={item.name} className={item.disabledAt ? 'withdrawn' : ''}>
      <td>{item.name}</td>
      <td>
        {self || item.disabledAt ? (
          item.roles.join(', ')
        ) : (
          <RolePicker value={roles} onChange={setRoles} testId="ops-operator-roles" />
        )}
        {changed ? (
          <button type="button" onClick={() => act(opsApi.setRoles(item.id, roles))} data-testid="ops-save-roles">
            Save roles
          </button>
        ) : null}
      </td>
      <td>{item.disabledAt ? 'disabled' : item.enrolled ? 'enrolled' : 'awaiting enrolment'}</td>
      <td>{item.liveSessions}</td>
      <td className="row">
        <button
          type="button"
          onClick={() => act(opsApi.endOperatorSessions(item.id))}
          disabled={item.liveSessions === 0}
          data-testid="ops-end-operator-sessions"
        >
          End sessions
        </button>
        {self || item.disabledAt ? null : (
          <>
            <button
              type="button"
              onClick={() => {
                if (!window.confirm(`New enrolment link for ${item.name}? Their password and app stop working.`))
                  return;
                opsApi.reenrolOperator(item.id).then(
                  (r) => {
                    onLink(item.name, r.enrolmentToken);
                    reload();
                  },
                  (e: unknown) => setProblem(problemOf(e)),
                );
              }}
              data-testid="ops-reenrol"
            >
              New link
            </button>
            <button
              type="button"
              onClick={() => window.confirm(`Disable ${item.name}?`) && act(opsApi.disableOperator(item.id))}
              data-testid="ops-disable-operator"
            >
              Disable
            </button>
          </>
        )}
        {problem ? <span className="problem">{problem}</span> : null}
      </td>
    </tr>
  );
}

function EndUserSessions() {
  const [userId, setUserId] = useState('');
  const [result, setResult] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    opsApi.endUserSessions(userId.trim()).then(
      (r) => setResult(`${r.ended} session(s) ended`),
      (e: unknown) => setResult(problemOf(e)),
    );
  };
  return (
    <form className="row" onSubmit={submit} data-testid="ops-end-user-sessions">
      <label>
        End every session of user (id){' '}
        <input value={userId} onChange={(e) => setUserId(e.target.value)} size={38} data-testid="ops-user-id" />
      </label>
      <button type="submit">End sessions</button>
      {result ? <span data-testid="ops-end-user-result">{result}</span> : null}
    </form>
  );
}

/** Admin: every operator, add one (a one-time enrolment link), roles, disable, end sessions. */
export function Operators({ self }: { self: string }) {
  const [items, setItems] = useState<OpsOperator[]>([]);
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<Role[]>(['support']);
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const [problem, setProblem] = useState('');
  const load = useCallback(() => {
    opsApi.operators().then(
      (r) => setItems(r.items),
      (e: unknown) => setProblem(problemOf(e)),
    );
  }, []);
  useEffect(load, [load]);
  const onLink = (who: string, token: string) => setLink({ name: who, url: enrolmentLinkOf(token) });
  const add = (event: FormEvent) => {
    event.preventDefault();
    opsApi.addOperator(name.trim(), roles).then(
      (r) => {
        onLink(name.trim(), r.enrolmentToken);
        setName('');
        load();
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  };
  return (
    <main className="card wide" data-testid="ops-operators">
      <h2>Operators</h2>
      <form className="row" onSubmit={add}>
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} data-testid="ops-new-operator-name" />
        </label>
        <RolePicker value={roles} onChange={setRoles} testId="ops-new-operator-roles" />
        <button type="submit" data-testid="ops-add-operator">
          Add operator
        </button>
      </form>
      {link ? (
        <p className="notice" data-testid="ops-enrolment-link">
          One-time enrolment link for <strong>{link.name}</strong> (24 hours; give it over a trusted channel):{' '}
          <code>{link.url}</code>
        </p>
      ) : null}
      {problem ? <p className="problem">{problem}</p> : null}
      <table data-testid="ops-operators-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Roles</th>
            <th>State</th>
            <th>Live sessions</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <OperatorRow
              key={`${item.id}:${item.roles.join()}`}
              item={item}
              self={item.name === self}
              reload={load}
              onLink={onLink}
            />
          ))}
        </tbody>
      </table>
      <EndUserSessions />
    </main>
  );
}
