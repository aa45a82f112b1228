/**
 * Import boundaries (npm run lint). Paths are relative to the repository root.
 * Each rule is proven to fire by scripts/lint-rules/dependency-rules.test.ts.
 */
const FRONT_END = '^(host|remotes|shared-ui|shared-state)/';
/** Pure modules the server and the browser both use (one address validation for forms and for withdrawals). */
/**
 * Pure rules both sides must agree on: address validation, the password rules, the lottery draw, and which
 * language and layout a browser gets (the server picks the pre-rendered landing page by them).
 */
const SHARED_WITH_SERVER = '^shared-state/src/((address|passwords|lottery|payouts|por|device)/|i18n/languages\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-not-to-other-feature',
      comment:
        'Inside an app, a feature never imports another feature (src/features/<a> -> src/features/<b>): code several ' +
        "features use lives in the app's src/lib or in shared-state/shared-ui; the app composes features in src/app.",
      severity: 'error',
      from: { path: '^(host|remotes/[^/]+)/src/features/([^/]+)/' },
      to: { path: '^$1/src/features/', pathNot: '^$1/src/features/$2/' },
    },
    {
      name: 'app-lib-not-to-features',
      comment: "An app's shared code (src/lib) never imports its features: imports run shared -> features -> app.",
      severity: 'error',
      from: { path: '^(host|remotes/[^/]+)/src/lib/' },
      to: { path: '^$1/src/features/' },
    },
    {
      name: 'remote-not-to-other-remote',
      comment: 'A remote never imports another remote: remotes are deployed independently.',
      severity: 'error',
      from: { path: '^remotes/([^/]+)/' },
      to: { path: '^remotes/([^/]+)/', pathNot: '^remotes/$1/' },
    },
    {
      name: 'remote-not-to-host',
      comment: 'A remote never imports the host: the host loads remotes, not the other way round.',
      severity: 'error',
      from: { path: '^remotes/' },
      to: { path: '^host/' },
    },
    {
      name: 'remote-not-to-react-router',
      comment: 'Remotes use the router only through @cw/shared-state/router.',
      severity: 'error',
      from: { path: '^remotes/' },
      to: { path: '(^|/)node_modules/react-router(-dom)?/' },
    },
    {
      name: 'shared-not-to-apps',
      comment: 'shared-ui and shared-state never import the host, a remote or the server.',
      severity: 'error',
      from: { path: '^shared-(ui|state)/' },
      to: { path: '^(host|remotes|server)/' },
    },
    {
      name: 'host-not-to-remotes',
      comment: 'The host loads remotes at run time only (module federation), never by import.',
      severity: 'error',
      from: { path: '^host/' },
      to: { path: '^(remotes|server)/' },
    },
    {
      name: 'server-not-to-front-end',
      comment:
        'The server never imports front-end packages, except the pure rules both sides must agree on (addresses, passwords).',
      severity: 'error',
      from: { path: '^server/' },
      to: {
        path: [FRONT_END, '(^|/)node_modules/(react|react-dom|react-router|react-i18next|zustand|antd-mobile)/'],
        pathNot: SHARED_WITH_SERVER,
      },
    },
    {
      name: 'server-shared-stays-pure',
      comment: 'Code the server shares with the browser imports nothing else of the front end and no UI library.',
      severity: 'error',
      from: { path: SHARED_WITH_SERVER },
      to: {
        path: [
          FRONT_END,
          '(^|/)node_modules/(react|react-dom|react-router|react-i18next|zustand|antd-mobile|i18next)/',
        ],
        pathNot: SHARED_WITH_SERVER,
      },
    },
    {
      name: 'wallet-calls-only-in-web3-kit',
      comment:
        'Only the web3 kit (shared-state/src/web3), where every request is checked by assertAllowed, talks to a wallet: ' +
        'nothing else of the front end imports wagmi or viem account/wallet actions (the wallet-safety rule).',
      severity: 'error',
      from: { path: FRONT_END, pathNot: '^shared-state/src/web3/' },
      to: {
        path: [
          '(^|/)node_modules/(wagmi|@wagmi/[^/]+)/',
          '(^|/)node_modules/viem/(_esm|_cjs|_types)/(actions|accounts|clients/decorators/wallet)',
        ],
      },
    },
    {
      name: 'no-circular',
      comment: 'No circular dependencies anywhere.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|\\.deploy|\\.data|\\.e2e|test-results)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.jsx', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
