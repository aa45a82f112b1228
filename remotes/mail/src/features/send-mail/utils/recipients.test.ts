import { describe, expect, it } from 'vitest';
import { parseRecipients, recipientsProblem } from './recipients.ts';

describe('recipients', () => {
  it('splits on commas, semicolons, spaces and new lines; lower-cases; keeps each once', () => {
    expect(parseRecipients(' A@x.io, b@y.org;c@z.net\n a@X.io  ')).toEqual(['a@x.io', 'b@y.org', 'c@z.net']);
    expect(parseRecipients(' ,; ')).toEqual([]);
  });

  it('needs one to five valid addresses', () => {
    expect(recipientsProblem([])).toEqual({ kind: 'required' });
    expect(recipientsProblem(['1@x.io', '2@x.io', '3@x.io', '4@x.io', '5@x.io', '6@x.io'])).toEqual({
      kind: 'tooMany',
    });
    expect(recipientsProblem(['ok@x.io', 'not-an-address'])).toEqual({ kind: 'invalid', address: 'not-an-address' });
    expect(recipientsProblem(['ok@x.io'])).toBeNull();
  });
});
