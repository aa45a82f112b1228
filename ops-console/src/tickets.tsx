import { type ChangeEvent, useCallback, useEffect, useState } from 'react';
import { type OpsTicket, type OpsTicketSummary, opsApi, problemOf } from './api.ts';
import { UserLocks } from './user-locks.tsx';

/** One ticket's thread (pictures from both sides) and the reply box with pictures. */
function TicketThread({ ticket, onReplied }: { ticket: OpsTicket; onReplied: () => void }) {
  const [text, setText] = useState('');
  const [pictures, setPictures] = useState<{ id: string; name: string }[]>([]);
  const [problem, setProblem] = useState('');
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    for (const file of files)
      opsApi.upload(file, 'ticket').then(
        (up) => setPictures((all) => [...all, up]),
        (e: unknown) => setProblem(problemOf(e)),
      );
  };
  const send = () =>
    opsApi
      .replyTicket(
        ticket.id,
        text,
        pictures.map((p) => p.id),
      )
      .then(
        () => {
          setText('');
          setPictures([]);
          onReplied();
        },
        (e: unknown) => setProblem(problemOf(e)),
      );
  return (
    <article className="message" data-testid="ops-ticket" data-id={ticket.id}>
      <p className="muted">
        {ticket.email}
        {ticket.txRef ? ` · tx ${ticket.txRef}` : ''} · {ticket.state}
      </p>
      <UserLocks user={ticket.email} />
      {ticket.messages.map((m) => (
        <div key={m.id} className={`bubble bubble--${m.author}`} data-testid="ops-ticket-message">
          <strong>{m.author === 'user' ? 'User' : 'Support'}</strong>{' '}
          <span className="muted">{new Date(m.createdAt).toLocaleString()}</span>
          <p className="content">{m.text}</p>
          {m.attachments.map((a) =>
            a.kind === 'image' ? (
              <img key={a.id} className="thumb" src={a.url} alt={a.name} data-testid="ops-ticket-picture" />
            ) : (
              <a key={a.id} href={`${a.url}?variant=original`}>
                {a.name}
              </a>
            ),
          )}
        </div>
      ))}
      {problem ? <p className="problem">{problem}</p> : null}
      <textarea
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Reply (the user gets a notice and an e-mail)"
        data-testid="ops-ticket-reply"
      />
      <input type="file" accept="image/*,.svg" multiple onChange={pick} data-testid="ops-ticket-file" />
      {pictures.length > 0 ? (
        <p className="muted" data-testid="ops-ticket-attached">
          {pictures.map((p) => p.name).join(', ')}
        </p>
      ) : null}
      <button type="button" onClick={() => void send()} data-testid="ops-ticket-send">
        Reply
      </button>
    </article>
  );
}

/** Tickets waiting for a reply, longest waiting first; open one to read and answer it. */
export function Tickets() {
  const [items, setItems] = useState<OpsTicketSummary[]>([]);
  const [open, setOpen] = useState<OpsTicket | null>(null);
  const [problem, setProblem] = useState('');
  const load = useCallback(
    () =>
      opsApi.tickets().then(
        (r) => setItems(r.items),
        (e: unknown) => setProblem(problemOf(e)),
      ),
    [],
  );
  useEffect(() => void load(), [load]);
  const show = (id: string) => opsApi.ticket(id).then(setOpen, (e: unknown) => setProblem(problemOf(e)));
  return (
    <section className="card" data-testid="ops-tickets">
      <h2>Tickets waiting for a reply</h2>
      {problem ? <p className="problem">{problem}</p> : null}
      {items.length === 0 ? <p className="muted">Nothing waiting.</p> : null}
      <ul className="plain">
        {items.map((t) => (
          <li key={t.id}>
            <button type="button" className="link" onClick={() => void show(t.id)} data-testid="ops-ticket-open">
              {new Date(t.updatedAt).toLocaleString()} · {t.description.slice(0, 80)}
            </button>
          </li>
        ))}
      </ul>
      {open ? (
        <TicketThread
          ticket={open}
          onReplied={() => {
            setOpen(null);
            void load();
          }}
        />
      ) : null}
    </section>
  );
}
