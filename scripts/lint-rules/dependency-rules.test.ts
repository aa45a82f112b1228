import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viemWalletImportViolations } from './viem-wallet-imports.ts';

interface DepcruiseConfig {
  forbidden: IForbiddenRuleType[];
  options: { enhancedResolveOptions: Record<string, unknown> } & Record<string, unknown>;
}

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as DepcruiseConfig;

/** A tiny repository in which every forbidden import happens once, next to allowed ones. */
const FIXTURE: Record<string, string> = {
  'node_modules/react-router/package.json': '{"name":"react-router","main":"index.js"}',
  'node_modules/react-router/index.js': 'export const Link = 1;',
  'node_modules/react/package.json': '{"name":"react","main":"index.js"}',
  'node_modules/wagmi/package.json': '{"name":"wagmi","main":"index.js"}',
  'node_modules/wagmi/index.js': 'export const connect = 1;',
  'node_modules/viem/package.json':
    '{"name":"viem","exports":{".":"./_esm/index.js","./actions":"./_esm/actions/index.js","./accounts":"./_esm/accounts/index.js"}}',
  'node_modules/viem/_esm/index.js': 'export const getAddress = 1;',
  'node_modules/viem/_esm/actions/index.js': 'export const sendTransaction = 1;',
  'node_modules/viem/_esm/accounts/index.js': 'export const signMessage = 1;',
  'remotes/a/src/to-wagmi.ts': "import 'wagmi';",
  'remotes/a/src/to-viem-actions.ts': "import 'viem/actions';",
  'shared-ui/src/to-viem-accounts.ts': "import 'viem/accounts';",
  'shared-state/src/web3/kit.ts': "import 'wagmi'; import 'viem/actions';",
  'shared-state/src/address/to-viem.ts': "import 'viem';",
  // Wallet-client APIs from the viem root (viemWalletImportViolations): forbidden outside the web3 kit.
  'remotes/a/src/to-viem-wallet-client.ts': "import { createWalletClient, custom as eip1193 } from 'viem';",
  'shared-ui/src/to-viem-namespace.ts': "import * as viem from 'viem'; export const v = viem;",
  'host/src/to-viem-dynamic.ts': "export const v = import('viem').then((m) => m.walletActions);",
  'remotes/a/src/re-export-viem.ts': "export { walletActions } from 'viem'; export * from 'viem';",
  'remotes/a/src/viem-reads.ts': "import { getAddress, type Hex } from 'viem'; export const x: Hex = getAddress('0x');",
  'shared-state/src/web3/client.ts': "import { createWalletClient, custom } from 'viem';",
  'node_modules/react/index.js': 'export const useState = 1;',
  'remotes/a/src/to-other-remote.ts': "import '../../b/src/index.ts';",
  'remotes/a/src/to-host.ts': "import '../../../host/src/index.ts';",
  'remotes/a/src/to-react-router.ts': "import 'react-router';",
  'remotes/a/src/allowed.ts': "import './local.ts'; import '../../../shared-state/src/router.ts'; import 'react';",
  'remotes/a/src/local.ts': 'export const local = 1;',
  'remotes/b/src/index.ts': 'export const b = 1;',
  'remotes/a/src/features/send/to-other-feature.ts': "import '../book/index.ts';",
  'remotes/a/src/features/send/allowed.ts': "import './local.ts'; import '../../lib/shared.ts';",
  'remotes/a/src/features/send/local.ts': 'export const local = 1;',
  'remotes/a/src/features/book/index.ts': 'export const book = 1;',
  'remotes/a/src/lib/shared.ts': 'export const shared = 1;',
  'remotes/a/src/lib/to-feature.ts': "import '../features/book/index.ts';",
  'remotes/a/src/app/compose.ts': "import '../features/send/local.ts'; import '../features/book/index.ts';",
  'host/src/features/account/to-other-feature.ts': "import '../frame/index.ts';",
  'host/src/features/frame/index.ts': 'export const frame = 1;',
  'host/src/index.ts': 'export const host = 1;',
  'host/src/to-remote.ts': "import '../../remotes/b/src/index.ts';",
  'host/src/allowed.ts': "import 'react-router'; import '../../shared-ui/src/index.ts';",
  'shared-ui/src/index.ts': 'export const ui = 1;',
  'shared-ui/src/to-host.ts': "import '../../host/src/index.ts';",
  'shared-state/src/router.ts': "export * from 'react-router';",
  'shared-state/src/to-server.ts': "import '../../server/src/index.ts';",
  'shared-state/src/cycle-a.ts': "import './cycle-b.ts'; export const a = 1;",
  'shared-state/src/cycle-b.ts': "import './cycle-a.ts'; export const b = 2;",
  'server/src/index.ts': 'export const server = 1;',
  'server/src/to-front-end.ts': "import '../../shared-state/src/router.ts';",
  'server/src/to-react.ts': "import 'react';",
  'server/src/to-address.ts': "import '../../shared-state/src/address/index.ts';",
  'shared-state/src/address/index.ts': "import './validate.ts'; export const address = 1;",
  'shared-state/src/address/validate.ts': 'export const validate = 1;',
  'shared-state/src/address/to-router.ts': "import '../router.ts';",
  'server/src/to-passwords.ts': "import '../../shared-state/src/passwords/index.ts';",
  'shared-state/src/passwords/index.ts': 'export const rules = 1;',
  'shared-state/src/passwords/to-router.ts': "import '../router.ts';",
};

let dir = '';
let result: ICruiseResult;

function violations(rule: string): string[] {
  return result.summary.violations
    .filter((v) => v.rule.name === rule)
    .map((v) => `${v.from} -> ${v.to}`)
    .sort();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'depcruise-fixture-'));
  for (const [file, body] of Object.entries(FIXTURE)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  }
  const { enhancedResolveOptions, ...options } = config.options;
  const reported = await cruise(
    ['remotes', 'host', 'shared-ui', 'shared-state', 'server'],
    { ...options, baseDir: dir, ruleSet: { forbidden: config.forbidden }, validate: true },
    enhancedResolveOptions,
  );
  result = reported.output as ICruiseResult;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('dependency-cruiser rules', () => {
  it('defines exactly the boundary rules the team agreed on', () => {
    expect(config.forbidden.map((r) => r.name).sort()).toEqual([
      'app-lib-not-to-features',
      'feature-not-to-other-feature',
      'host-not-to-remotes',
      'no-circular',
      'remote-not-to-host',
      'remote-not-to-other-remote',
      'remote-not-to-react-router',
      'server-not-to-front-end',
      'server-shared-stays-pure',
      'shared-not-to-apps',
      'wallet-calls-only-in-web3-kit',
    ]);
  });

  it('only the web3 kit imports wagmi or viem wallet/account actions (issue 40 item 6)', () => {
    expect(violations('wallet-calls-only-in-web3-kit')).toEqual([
      'remotes/a/src/to-viem-actions.ts -> node_modules/viem/_esm/actions/index.js',
      'remotes/a/src/to-wagmi.ts -> node_modules/wagmi/index.js',
      'shared-ui/src/to-viem-accounts.ts -> node_modules/viem/_esm/accounts/index.js',
    ]);
  });

  it('remotes never import each other', () => {
    expect(violations('remote-not-to-other-remote')).toEqual([
      'remotes/a/src/to-other-remote.ts -> remotes/b/src/index.ts',
    ]);
  });

  it('remotes never import the host', () => {
    expect(violations('remote-not-to-host')).toEqual(['remotes/a/src/to-host.ts -> host/src/index.ts']);
  });

  it('remotes never import react-router directly', () => {
    expect(violations('remote-not-to-react-router')).toEqual([
      'remotes/a/src/to-react-router.ts -> node_modules/react-router/index.js',
    ]);
  });

  it('shared packages never import apps or the server', () => {
    expect(violations('shared-not-to-apps')).toEqual([
      'shared-state/src/to-server.ts -> server/src/index.ts',
      'shared-ui/src/to-host.ts -> host/src/index.ts',
    ]);
  });

  it('inside an app, a feature never imports another feature', () => {
    expect(violations('feature-not-to-other-feature')).toEqual([
      'host/src/features/account/to-other-feature.ts -> host/src/features/frame/index.ts',
      'remotes/a/src/features/send/to-other-feature.ts -> remotes/a/src/features/book/index.ts',
    ]);
  });

  it("an app's shared code never imports its features; the app layer composes them", () => {
    expect(violations('app-lib-not-to-features')).toEqual([
      'remotes/a/src/lib/to-feature.ts -> remotes/a/src/features/book/index.ts',
    ]);
    const flagged = result.summary.violations.map((v) => v.from);
    expect(flagged).not.toContain('remotes/a/src/app/compose.ts');
    expect(flagged).not.toContain('remotes/a/src/features/send/allowed.ts');
  });

  it('the host never imports a remote', () => {
    expect(violations('host-not-to-remotes')).toEqual(['host/src/to-remote.ts -> remotes/b/src/index.ts']);
  });

  it('the server never imports front-end packages', () => {
    expect(violations('server-not-to-front-end')).toEqual([
      'server/src/to-front-end.ts -> shared-state/src/router.ts',
      'server/src/to-react.ts -> node_modules/react/index.js',
    ]);
  });

  it('the server may import the shared address and password rules, which stay pure', () => {
    const flagged = result.summary.violations.map((v) => v.from);
    expect(flagged).not.toContain('server/src/to-address.ts');
    expect(flagged).not.toContain('server/src/to-passwords.ts');
    expect(violations('server-shared-stays-pure')).toEqual([
      'shared-state/src/address/to-router.ts -> shared-state/src/router.ts',
      'shared-state/src/passwords/to-router.ts -> shared-state/src/router.ts',
    ]);
  });

  it('circular dependencies are reported', () => {
    expect(violations('no-circular').length).toBeGreaterThan(0);
    expect(violations('no-circular').join(' ')).toContain('cycle-a.ts');
  });

  it('allowed imports raise nothing', () => {
    const flagged = result.summary.violations.map((v) => v.from);
    expect(flagged).not.toContain('remotes/a/src/allowed.ts');
    expect(flagged).not.toContain('host/src/allowed.ts');
  });
});

describe('viem wallet-client imports (security review of issue 40, item 2)', () => {
  it('only the web3 kit takes createWalletClient, custom, walletActions… or all of viem from its root', () => {
    expect(viemWalletImportViolations(dir)).toEqual([
      "host/src/to-viem-dynamic.ts: import('viem') (line 1)",
      "remotes/a/src/re-export-viem.ts: export * from 'viem' (line 1)",
      'remotes/a/src/re-export-viem.ts: walletActions (line 1)',
      'remotes/a/src/to-viem-wallet-client.ts: createWalletClient (line 1)',
      'remotes/a/src/to-viem-wallet-client.ts: custom (line 1)',
      "shared-ui/src/to-viem-namespace.ts: * as … from 'viem' (line 1)",
    ]);
  });

  it("the repository's own front end takes none outside the web3 kit", () => {
    expect(viemWalletImportViolations(path.resolve(import.meta.dirname, '../..'))).toEqual([]);
  });
});
