import { type FormEvent, useEffect, useRef, useState } from 'react';
import { problemOf } from './api.ts';

/**
 * Asks for the reason of a reveal or an action (recorded in the audit log with it), then runs `run`.
 * A modal <dialog>: Escape or Cancel closes it and nothing is sent; the server refuses an empty reason
 * too. The error of a refused request stays in the dialog.
 */
export function ReasonDialog({
  title,
  confirm,
  onClose,
  run,
}: {
  title: string;
  confirm: string;
  onClose: () => void;
  run: (reason: string) => Promise<unknown>;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setProblem('A reason is required.');
      return;
    }
    setBusy(true);
    setProblem('');
    try {
      await run(reason.trim());
      onClose();
    } catch (e) {
      setProblem(problemOf(e));
      setBusy(false);
    }
  };
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="ops-reason-title" data-testid="ops-reason-dialog">
      <form onSubmit={submit}>
        <h3 id="ops-reason-title">{title}</h3>
        <label>
          Reason (kept in the audit log)
          <br />
          <textarea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            rows={3}
            aria-required="true"
            data-testid="ops-reason"
          />
        </label>
        {problem ? (
          <p className="problem" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="row">
          <button type="submit" disabled={busy} data-testid="ops-reason-confirm">
            {confirm}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
