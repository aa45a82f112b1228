import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { useForm } from './use-form.ts';

function Form() {
  const form = useForm({ identifier: '', password: '' }, {}, () => ({ identifier: 'alice@example.com' }));
  return (
    <form>
      <input {...form.input('identifier')} />
      <input {...form.input('password')} />
    </form>
  );
}

/** The pre-rendered login markup in the page, as the build writes it, then hydrated. */
async function hydrate(before: (container: HTMLElement) => void): Promise<HTMLElement> {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Form />);
  document.body.append(container);
  before(container);
  await act(async () => {
    hydrateRoot(container, <Form />);
  });
  return container;
}

// As Testing Library does for its renders: act() waits for the hydration's effects.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const field = (container: HTMLElement, id: string) => container.querySelector(`#${id}`) as HTMLInputElement;

afterEach(() => document.body.replaceChildren());

describe('useForm prefill after hydration', () => {
  it('puts a remembered value into an empty field the user is not in', async () => {
    const container = await hydrate(() => {});
    expect(field(container, 'identifier').value).toBe('alice@example.com');
  });

  it('leaves the field the user is in alone: their select-all and text must not land after it', async () => {
    const container = await hydrate((c) => field(c, 'identifier').focus());
    expect(field(container, 'identifier').value).toBe('');
  });

  it('keeps what was typed into the pre-rendered field', async () => {
    const container = await hydrate((c) => {
      field(c, 'identifier').value = 'bob_2';
    });
    expect(field(container, 'identifier').value).toBe('bob_2');
  });
});
