import { useCallback, useEffect, useState } from 'react';
import { AnnouncementEditor } from './announcement-editor.tsx';
import { type OpsAnnouncement, opsApi, problemOf } from './api.ts';

/** Every announcement (scheduled and withdrawn too), a withdraw button on live ones, and the editor. */
export function Announcements() {
  const [items, setItems] = useState<OpsAnnouncement[]>([]);
  const [problem, setProblem] = useState('');
  const load = useCallback(
    () =>
      opsApi.announcements().then(
        (r) => setItems(r.items),
        (e: unknown) => setProblem(problemOf(e)),
      ),
    [],
  );
  useEffect(() => void load(), [load]);
  const withdraw = (item: OpsAnnouncement) => {
    if (!window.confirm(`Withdraw “${item.title}”?`)) return;
    opsApi.withdraw(item.id).then(load, (e: unknown) => setProblem(problemOf(e)));
  };
  return (
    <main className="columns">
      <AnnouncementEditor onPublished={load} />
      <section className="card">
        <h2>Announcements</h2>
        {problem ? <p className="problem">{problem}</p> : null}
        <table data-testid="ops-announcements">
          <thead>
            <tr>
              <th>Published</th>
              <th>Title (zh-CN)</th>
              <th>Category</th>
              <th>Languages</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-id={item.id} className={item.withdrawnAt ? 'withdrawn' : ''}>
                <td>{new Date(item.publishAt).toLocaleString()}</td>
                <td>
                  {item.pinned ? '[pinned] ' : ''}
                  {item.title}
                </td>
                <td>{item.category}</td>
                <td>{item.languages}</td>
                <td>
                  {item.withdrawnAt ? (
                    'withdrawn'
                  ) : (
                    <button type="button" onClick={() => withdraw(item)} data-testid="ops-withdraw">
                      Withdraw
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}
