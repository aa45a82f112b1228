import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { addTestOperator } from '../operators/test-helpers.ts';
import { fund, newUser, useWalletHarness } from '../withdrawals/test-helpers.ts';

/**
 * Review s7 (issue 32: "every lookup and page view is in the audit log", ops-users/routes.ts). The
 * ledger pages of a user (every booking, amount and balance, as deep as one likes) leave no audit
 * record: compliance can page a user's whole financial history with no trace. `it.fails` passes today.
 */
const h = useWalletHarness();

describe('review s7: the user ledger read', () => {
  it('paging a user’s ledger is audited with the operator, like the page view', async () => {
    const comp = await addTestOperator(h.app, { db: h.db, now: h.clock.now }, 's7_comp3', ['compliance']);
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', 10n ** 18n);
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/ops/users/${user.user.id}/ledger?limit=200`,
      headers: { cookie: comp.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.length).toBeGreaterThan(0);
    const mine = (await listAudit(h.db, { userId: user.user.id })).filter((e) => e.details.by === 's7_comp3');
    // Today: none.
    expect(mine.length).toBeGreaterThan(0);
  });
});
