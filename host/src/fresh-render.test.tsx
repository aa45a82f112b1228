import { type ComponentType, lazy, Suspense } from 'react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useForm } from './features/account/hooks/use-form.ts';
import { takeMarkupValue } from './features/account/utils/markup-values.ts';
import { renderFresh } from './fresh-render.ts';
import { PRERENDERED_ATTRIBUTE } from './prerendered.ts';

/** The landing form as the app renders it, fields by id (useForm takes what the markup's fields hold). */
function LoginForm() {
  const form = useForm({ identifier: '', password: '' }, {});
  return (
    <form>
      <input {...form.input('identifier')} />
      <input type="password" {...form.input('password')} />
    </form>
  );
}

/** A screen that loads lazily, when the test says: the fresh tree commits a fallback first. */
function lazyForm() {
  let load = () => {};
  const Screen = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve) => {
        load = () => resolve({ default: LoginForm });
      }),
  );
  const app = (
    <Suspense fallback={<p>loading</p>}>
      <Screen />
    </Suspense>
  );
  return { app, load: () => load() };
}

/** #root of a pre-rendered /login page, in the document. */
function preRendered(): HTMLElement {
  const markup = document.createElement('div');
  markup.id = 'root';
  markup.setAttribute(PRERENDERED_ATTRIBUTE, '/login');
  markup.innerHTML = '<form><input id="identifier"><input type="password" id="password"></form>';
  document.body.append(markup);
  return markup;
}

const input = (tree: ParentNode, id: string) => tree.querySelector(`#${id}`) as HTMLInputElement;

let root: Root | undefined;
const act = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let actEnvironment: boolean | undefined;

beforeEach(() => {
  // React commits on its own schedule here, as in the browser (not inside act()).
  actEnvironment = act.IS_REACT_ACT_ENVIRONMENT;
  act.IS_REACT_ACT_ENVIRONMENT = false;
});

afterEach(() => {
  root?.unmount();
  root = undefined;
  document.body.replaceChildren();
  act.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
});

describe('a fresh render over a pre-rendered landing page', () => {
  it('keeps the markup typeable until the app has its fields, then swaps in the text, focus and caret', async () => {
    const markup = preRendered();
    input(markup, 'password').value = 'Passw0rd_e2e';
    const { app, load } = lazyForm();
    root = renderFresh(markup, app);

    // The visitor goes on typing in the markup while the app loads: the field is still there.
    const field = input(markup, 'identifier');
    expect(field.isConnected).toBe(true);
    field.focus();
    field.value = 'bob_2';
    field.setSelectionRange(2, 4);
    // Enter in a markup field does not load the page with the password in its address.
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    markup.querySelector('form')?.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);

    // The app's fallback has committed (hidden): the markup is still what is shown.
    await vi.waitFor(() => expect(document.body.textContent).toContain('loading'));
    expect(markup.isConnected).toBe(true);
    expect(document.getElementById('root')).toBe(markup);

    load();
    await vi.waitFor(() => expect(markup.isConnected).toBe(false));
    const shown = document.getElementById('root') as HTMLElement;
    expect(shown).not.toBe(markup);
    expect(shown.hidden).toBe(false);
    expect(shown.hasAttribute(PRERENDERED_ATTRIBUTE)).toBe(false);
    expect(document.querySelectorAll('#identifier')).toHaveLength(1);
    const carried = input(shown, 'identifier');
    expect(carried.value).toBe('bob_2');
    expect(input(shown, 'password').value).toBe('Passw0rd_e2e');
    expect(document.activeElement).toBe(carried);
    expect([carried.selectionStart, carried.selectionEnd]).toEqual([2, 4]);
    // Nothing is left for a later screen (markup-values.ts: read once).
    expect(takeMarkupValue('identifier')).toBeUndefined();
  });

  it('shows the app after the wait when its fields never come, and a later form still gets the text once', async () => {
    const markup = preRendered();
    const { app, load } = lazyForm();
    root = renderFresh(markup, app, 50);
    expect(markup.isConnected).toBe(true);
    input(markup, 'identifier').value = 'carol';

    await vi.waitFor(() => expect(markup.isConnected).toBe(false));
    const shown = document.getElementById('root') as HTMLElement;
    expect(shown.hidden).toBe(false);
    expect(shown.textContent).toBe('loading');

    load();
    await vi.waitFor(() => expect(input(shown, 'identifier').value).toBe('carol'));
    expect(takeMarkupValue('identifier')).toBeUndefined();
  });

  it('renders into an empty #root (the plain page) in place', async () => {
    const container = document.createElement('div');
    container.id = 'root';
    document.body.append(container);
    root = renderFresh(container, <LoginForm />);
    await vi.waitFor(() => expect(input(container, 'identifier')).not.toBeNull());
    expect(document.getElementById('root')).toBe(container);
  });
});
