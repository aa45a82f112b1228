/**
 * The app rendered afresh over a pre-rendered landing page it cannot hydrate (another language than the
 * markup's: boot.ts). createRoot().render commits in a later task, and emptying #root first left the page
 * blank until then: the field the visitor was typing in vanished with its focus and the keys typed meanwhile.
 * Instead the app renders into a hidden sibling placed after the markup, and the two are swapped in the task
 * of the commit that brings the markup's fields: no frame is painted and no key is handled in between.
 * The markup stays first in document order until then, so a form's layout effect finds what was typed in its
 * fields by id (use-form.ts); the focus and caret are moved over at the swap.
 */
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { keepMarkupValues } from './features/account/utils/markup-values.ts';
import { PRERENDERED_ATTRIBUTE } from './prerendered.ts';

/** A fresh tree still without the markup's fields by then (a lazy chunk failed, another screen) is shown anyway. */
export const READY_WAIT_MS = 5000;

const fieldIds = (tree: ParentNode) => Array.from(tree.querySelectorAll('input[id]'), (field) => field.id);

/** Renders `app` in place of the pre-rendered `markup` (#root), which stays live until the app has its fields. */
export function renderFresh(markup: HTMLElement, app: ReactNode, waitMs = READY_WAIT_MS): Root {
  if (!markup.hasChildNodes()) {
    // The plain page (index.html): nothing to keep on screen meanwhile.
    const root = createRoot(markup);
    root.render(app);
    return root;
  }
  const fresh = markup.cloneNode(false) as HTMLElement;
  // It takes #root's id at the swap: one element by that id at a time, and #root's style once it shows.
  fresh.removeAttribute('id');
  fresh.removeAttribute(PRERENDERED_ATTRIBUTE);
  fresh.hidden = true;
  markup.after(fresh);
  // Enter in a markup field would submit the form natively: a page load with the password in its address.
  markup.addEventListener('submit', (event) => event.preventDefault());

  const wanted = fieldIds(markup);
  let done = false;
  const swap = () => {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    replaceMarkup(markup, fresh);
  };
  // Called at the microtask checkpoint after the commit that made the change: before any paint or input.
  const observer = new MutationObserver(() => {
    const present = new Set(fieldIds(fresh));
    if (!done && wanted.every((id) => present.has(id))) swap();
  });
  observer.observe(fresh, { childList: true, subtree: true });
  const timer = setTimeout(() => {
    if (done) return;
    // The form may come later (a retried chunk): it takes the typed text from here, once.
    keepMarkupValues(markup);
    swap();
  }, waitMs);

  const root = createRoot(fresh);
  root.render(app);
  return root;
}

/** Removes the markup and shows the fresh tree as #root, with the focus and caret where they were. */
function replaceMarkup(markup: HTMLElement, fresh: HTMLElement): void {
  const focused = document.activeElement;
  const carried = focused instanceof HTMLElement && focused.id !== '' && markup.contains(focused) ? focused : null;
  const selection =
    carried instanceof HTMLInputElement
      ? { start: carried.selectionStart, end: carried.selectionEnd, direction: carried.selectionDirection }
      : null;
  markup.remove();
  fresh.id = markup.id;
  fresh.hidden = false;
  if (!carried) return;
  const target = document.getElementById(carried.id);
  if (!target || !fresh.contains(target)) return;
  target.focus();
  // Null for input types without a selection (their setSelectionRange throws).
  const selectable = target instanceof HTMLInputElement && target.selectionStart !== null;
  if (selectable && selection?.start != null && selection.end != null) {
    target.setSelectionRange(selection.start, selection.end, selection.direction ?? undefined);
  }
}
