import { describe, expect, it } from 'vitest';
import { assertNoSkew, SharedSkewError, skewProblems } from './shared-skew.ts';

const host = { 'react-router': '7.4.2', react: '19.3.1' };

describe('shared-version skew at deploy (issue 35 item 4)', () => {
  it('refuses a remote built against another minor, naming the package and both versions', () => {
    const shared = [{ name: 'react-router', version: '7.6.0', requiredVersion: '^7.6.0', singleton: true }];
    expect(skewProblems('wallet', shared, host)).toEqual([
      'wallet 7.6.0 needs react-router ^7.6.0, the host provides 7.4.2',
    ]);
    expect(() => assertNoSkew('wallet', shared, host)).toThrow(SharedSkewError);
  });

  it('lets a compatible patch-level difference deploy', () => {
    const shared = [{ name: 'react-router', version: '7.4.0', requiredVersion: '^7.4.0', singleton: true }];
    expect(() => assertNoSkew('wallet', shared, host)).not.toThrow();
  });

  it('refuses a remote that ships its own copy of a host singleton', () => {
    const shared = [{ name: 'react', version: '19.3.1', requiredVersion: '^19.3.1', singleton: false }];
    expect(skewProblems('wallet', shared, host)[0]).toMatch(/bundles its own react/);
  });
});
