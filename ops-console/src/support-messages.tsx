import { useCallback, useEffect, useState } from 'react';
import { opsApi, problemOf, type SupportMessage } from './api.ts';

/** Left messages waiting for an answer, oldest first; the answer goes out by e-mail (and as a notice). */
export function SupportMessages() {
  const [items, setItems] = useState<SupportMessage[]>([]);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [pictures, setPictures] = useState<Record<string, { id: string; name: string }[]>>({});
  const [problem, setProblem] = useState('');
  const load = useCallback(
    () =>
      opsApi.supportMessages().then(
        (r) => setItems(r.items),
        (e: unknown) => setProblem(problemOf(e)),
      ),
    [],
  );
  useEffect(() => void load(), [load]);
  const answer = (id: string) =>
    opsApi
      .answerMessage(
        id,
        answers[id] ?? '',
        (pictures[id] ?? []).map((p) => p.id),
      )
      .then(load, (e: unknown) => setProblem(problemOf(e)));
  // Pictures for an answer: checked by the server now, attached to the e-mail when the answer is sent.
  const pick = (id: string, files: FileList | null) => {
    for (const file of Array.from(files ?? []))
      opsApi.upload(file, 'message').then(
        (up) => setPictures((all) => ({ ...all, [id]: [...(all[id] ?? []), up] })),
        (e: unknown) => setProblem(problemOf(e)),
      );
  };
  return (
    <section className="card" data-testid="ops-messages">
      <h2>Left messages</h2>
      {problem ? <p className="problem">{problem}</p> : null}
      {items.length === 0 ? <p className="muted">Nothing waiting.</p> : null}
      {items.map((m) => (
        <article key={m.id} className="message" data-id={m.id}>
          <p className="muted">
            {new Date(m.createdAt).toLocaleString()} · {[m.phone, m.email].filter(Boolean).join(' · ')}
            {m.signedIn ? ' · signed-in user' : ''}
          </p>
          <p className="content">{m.content}</p>
          {m.attachments.map((a) => (
            <img key={a.id} className="thumb" src={a.url} alt={a.name} data-testid="ops-message-picture" />
          ))}
          <textarea
            rows={3}
            value={answers[m.id] ?? ''}
            onChange={(e) => setAnswers((a) => ({ ...a, [m.id]: e.target.value }))}
            placeholder={m.email ? `Answer (e-mailed to ${m.email})` : 'Answer (no e-mail left: call the number)'}
            data-testid="ops-answer"
          />
          <input
            type="file"
            accept="image/*,.svg"
            multiple
            onChange={(e) => pick(m.id, e.target.files)}
            data-testid="ops-answer-file"
          />
          {pictures[m.id]?.length ? (
            <p className="muted" data-testid="ops-answer-attached">
              {pictures[m.id]?.map((p) => p.name).join(', ')}
            </p>
          ) : null}
          <button type="button" onClick={() => void answer(m.id)} data-testid="ops-answer-send">
            Answer
          </button>
        </article>
      ))}
    </section>
  );
}
