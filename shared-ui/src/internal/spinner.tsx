import './spinner.css';

/** A CSS-only spinner (antd-mobile's SpinLoading pulls in an animation library). */
export function Spinner({ size = 24, className = '', label }: { size?: number; className?: string; label?: string }) {
  return (
    <span
      className={`cw-spinner ${className}`}
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  );
}
