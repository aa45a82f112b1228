import { createConfig } from '../../rspack.base.ts';

export default (_env: unknown, argv: { mode?: string }) =>
  createConfig(
    { name: 'convert', kind: 'remote', dir: import.meta.dirname, exposes: { './routes': './src/routes.ts' } },
    argv,
  );
