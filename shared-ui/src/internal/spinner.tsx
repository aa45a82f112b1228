import './spinner.css';

/** A CSS-only spinner (antd-mobile's SpinLoading pulls in an animation library). */
export function Spinner({ size = 24, className = '', label }: { size?: number; className?: string; label?: string }) {
  const style = { width: size, height: size };
  if (label) return <span className={`cw-spinner ${className}`} style={style} role="status" aria-label={label} />;
  return <span className={`cw-spinner ${className}`} style={style} aria-hidden />;
}
