import { CheckOutline, CloseOutline } from 'antd-mobile-icons';
import { useStore } from 'zustand';
import { Spinner } from '../internal/spinner.tsx';
import { type ToastItem, toastStore } from './toast-store.ts';
import './toast.css';

function ToastIcon({ type }: { type: ToastItem['type'] }) {
  if (type === 'success') return <CheckOutline className="cw-toast__icon" aria-hidden />;
  if (type === 'fail') return <CloseOutline className="cw-toast__icon" aria-hidden />;
  if (type === 'loading') return <Spinner size={28} className="cw-spinner--light cw-toast__icon" />;
  return null;
}

function ToastMessage({ item }: { item: ToastItem }) {
  const shown = item.visible && !item.hidden;
  const className = `cw-toast cw-toast--${item.alertType === 2 ? 'plain' : 'rounded'} cw-toast--${item.type}${shown ? ' cw-toast--shown' : ''}`;
  return (
    <div
      className={className}
      data-testid="toast-item"
      data-type={item.type}
      data-state={shown ? 'visible' : 'hidden'}
      aria-hidden={!shown}
    >
      <ToastIcon type={item.type} />
      {item.type === 'html' ? (
        <div className="cw-toast__text" dangerouslySetInnerHTML={{ __html: item.message }} />
      ) : (
        item.message && <div className="cw-toast__text">{item.message}</div>
      )}
    </div>
  );
}

/** Renders the message list. Mount once, at the top of the app. */
export function ToastHost() {
  const items = useStore(toastStore, (state) => state.items);
  // Queued messages render only once they appeared; hidden ones fade out until the list clears.
  const shown = items.filter((item) => item.visible || item.hidden);
  return (
    <div className="cw-toast-list" role="status" aria-live="polite">
      {shown.map((item) => (
        <ToastMessage key={item.id} item={item} />
      ))}
    </div>
  );
}
