/** A masked value and, for compliance, a Reveal button that asks why (the reveal is audited). */
export function Masked({
  value,
  revealed,
  canReveal,
  onReveal,
  testId,
}: {
  value: string | null;
  revealed: string | undefined;
  canReveal: boolean;
  onReveal: () => void;
  testId: string;
}) {
  if (value === null) return <span className="muted">—</span>;
  return (
    <span>
      <span data-testid={testId}>{revealed ?? value}</span>
      {canReveal && revealed === undefined ? (
        <>
          {' '}
          <button type="button" onClick={onReveal} data-testid={`${testId}-reveal`}>
            Reveal
          </button>
        </>
      ) : null}
    </span>
  );
}
