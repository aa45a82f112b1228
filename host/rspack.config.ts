import { createConfig } from '../rspack.base.ts';

export default (_env: unknown, argv: { mode?: string }) =>
  createConfig({ name: 'host', kind: 'host', dir: import.meta.dirname }, argv);
