import { createConfig } from '../../rspack.base.ts';

export default (_env: unknown, argv: { mode?: string }) =>
  createConfig(
    { name: 'wallet', kind: 'remote', dir: import.meta.dirname, port: 3001, exposes: { './routes': './src/routes.ts' } },
    argv,
  );
