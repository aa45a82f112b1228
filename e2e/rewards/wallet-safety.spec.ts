import { scanBundles } from '../../scripts/wallet-safety/check.ts';
import { E2E_STATIC_DIR } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';

/**
 * The bundles this suite runs against (host, every remote, the console: the deploy folder the e2e
 * server serves) contain no approval, permit or transferFrom selector and no signing method
 * (scripts/wallet-safety/check.ts; its own tests prove it fails on a bundle that has one).
 */
test('no built bundle can ask a wallet for an approval, a permit, a signature or a batch of calls', () => {
  const { files, findings } = scanBundles([E2E_STATIC_DIR]);
  expect(files).toBeGreaterThan(20);
  expect(findings).toEqual([]);
});
