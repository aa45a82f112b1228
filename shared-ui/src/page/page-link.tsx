import type { ButtonHTMLAttributes } from 'react';
import './page.css';

/**
 * A text action on the right of a Page's nav bar (e.g. "History"): the same
 * blue link in every remote.
 */
export function PageLink({ className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type="button" {...props} className={`cw-page__link ${className}`} />;
}
