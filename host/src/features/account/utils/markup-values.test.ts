import { describe, expect, it } from 'vitest';
import { keepMarkupValues, takeMarkupValue } from './markup-values.ts';

describe('text typed into the pre-rendered page before a fresh render', () => {
  it('is kept by field id, handed over once, and empty fields are not kept', () => {
    const markup = document.createElement('div');
    markup.innerHTML = '<form><input id="identifier"><input id="password" type="password"><input id="code"></form>';
    (markup.querySelector('#identifier') as HTMLInputElement).value = 'alice';
    (markup.querySelector('#password') as HTMLInputElement).value = 'Passw0rd_e2e';
    keepMarkupValues(markup);
    markup.replaceChildren();
    expect(takeMarkupValue('identifier')).toBe('alice');
    expect(takeMarkupValue('password')).toBe('Passw0rd_e2e');
    expect(takeMarkupValue('code')).toBeUndefined();
    // Read once: a form mounted later starts empty.
    expect(takeMarkupValue('identifier')).toBeUndefined();
  });
});
