import { createConfig } from '../../rspack.base.ts';

export default (_env: unknown, argv: { mode?: string }) =>
  createConfig(
    { name: 'mail', kind: 'remote', dir: import.meta.dirname, port: 3004, exposes: { './routes': './src/routes.ts' } },
    argv,
  );
