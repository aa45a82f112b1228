import { describe, expect, it } from 'vitest';
import { stepOf } from './withdrawal-detail-screen.tsx';

describe('stepOf', () => {
  it('maps every withdrawal state to its step', () => {
    expect(stepOf('in_review')).toEqual({ current: 0, failed: false });
    expect(stepOf('review_rejected')).toEqual({ current: 0, failed: true });
    expect(stepOf('review_approved')).toEqual({ current: 1, failed: false });
    expect(stepOf('transfer_in_progress')).toEqual({ current: 1, failed: false });
    expect(stepOf('transfer_failed')).toEqual({ current: 1, failed: true });
    expect(stepOf('transfer_successful')).toEqual({ current: 2, failed: false });
  });
});
