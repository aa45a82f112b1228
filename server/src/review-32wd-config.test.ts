import { describe, expect, it } from 'vitest';
import { parseEnv } from './config-env.ts';

/**
 * Security review of the four-eyes work (issue 32, review-32wd.md). Automatic review (withdrawals/service.ts
 * placeWithdrawal) approves with NO operator while the user's 24 h outflow stays within OUTFLOW_BUDGET_USD;
 * four eyes needs two operators above WITHDRAWAL_SECOND_APPROVAL_USD. Nothing ties the two: a budget above the
 * second-approval value lets a withdrawal worth more than it go out with zero approvals (e.g. 0.5 BTC, the
 * default BTC auto-review limit, is ~$45,000). Once fixed, turn `it.fails` into `it`.
 */
describe('review-32wd: settings', () => {
  it('the defaults parse (precondition of the test below)', () => {
    expect(parseEnv({}).issues).toEqual([]);
  });

  it('LOW-6: OUTFLOW_BUDGET_USD above WITHDRAWAL_SECOND_APPROVAL_USD is refused at start', () => {
    const parsed = parseEnv({ OUTFLOW_BUDGET_USD: '50000', WITHDRAWAL_SECOND_APPROVAL_USD: '10000' });
    expect(parsed.issues.join(' ')).toMatch(/WITHDRAWAL_SECOND_APPROVAL_USD|OUTFLOW_BUDGET_USD/);
  });
});
