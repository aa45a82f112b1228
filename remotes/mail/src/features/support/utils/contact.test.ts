import { describe, expect, it } from 'vitest';
import { contactProblem } from './contact.ts';

const base = { phoneCountry: '', phone: '', email: '', content: 'Hello' };

describe('leave-a-message contact', () => {
  it('needs a phone or an e-mail; a phone needs its area code and must be valid there', () => {
    expect(contactProblem(base)).toBe('contact');
    expect(contactProblem({ ...base, phone: '13800138000' })).toBe('areaCode');
    expect(contactProblem({ ...base, phone: '12345', phoneCountry: 'CN' })).toBe('phone');
    expect(contactProblem({ ...base, phone: '13800138000', phoneCountry: 'CN' })).toBeNull();
    expect(contactProblem({ ...base, email: 'nope' })).toBe('email');
    expect(contactProblem({ ...base, email: 'me@example.com' })).toBeNull();
    expect(contactProblem({ ...base, email: 'me@example.com', content: '  ' })).toBe('content');
  });
});
