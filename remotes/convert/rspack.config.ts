import { createConfig } from '../../rspack.base.ts';

export default (_env: unknown, argv: { mode?: string }) =>
  createConfig(
    { name: 'convert', kind: 'remote', dir: import.meta.dirname, port: 3002, exposes: { './routes': './src/routes.ts' } },
    argv,
  );
