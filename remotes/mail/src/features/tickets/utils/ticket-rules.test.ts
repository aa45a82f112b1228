import { describe, expect, it } from 'vitest';
import { ticketProblem } from './ticket-rules.ts';

const idle = { busy: false, failed: false };

describe('ticketProblem', () => {
  it('asks for a valid e-mail and a description, and waits for pictures to finish or be removed', () => {
    expect(ticketProblem({ email: 'nope', description: 'x' }, idle)).toBe('email');
    expect(ticketProblem({ email: 'a@b.co', description: '   ' }, idle)).toBe('description');
    expect(ticketProblem({ email: 'a@b.co', description: 'help' }, { busy: true, failed: false })).toBe('uploading');
    expect(ticketProblem({ email: 'a@b.co', description: 'help' }, { busy: false, failed: true })).toBe(
      'pictureFailed',
    );
    expect(ticketProblem({ email: 'a@b.co', description: 'help' }, idle)).toBeNull();
    expect(ticketProblem({ description: 'a follow-up has no e-mail' }, idle)).toBeNull();
  });
});
