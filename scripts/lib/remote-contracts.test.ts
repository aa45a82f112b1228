import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContracts, HOST_USES, remoteTargets } from './remote-contracts.ts';

describe('host-remote contracts (issue 35)', () => {
  it('every remote exposes what the host uses, and each exposed module type-checks against the host contract; a screen that now needs a prop fails, naming remote, module and contract', async () => {
    const targets = await remoteTargets();
    expect(new Set(targets.map((t) => t.remote)).size).toBe(5);
    for (const t of targets) expect(Object.keys(HOST_USES)).toContain(t.expose);
    const breaking = {
      remote: 'fixture',
      expose: './routes',
      file: path.join(import.meta.dirname, 'fixtures', 'breaking-routes.tsx'),
    };
    const problems = await checkContracts([...targets, breaking]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^fixture \.\/routes \(scripts\/lib\/fixtures\/breaking-routes\.tsx\) no longer satisfies the host's RemoteRoutesModule/,
    );
    expect(problems[0]).toMatch(/orderId/);
  }, 180_000);
});
