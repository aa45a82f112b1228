import { createConfig } from '../rspack.base.ts';

/** The operator console: its own small app served at /ops, not a remote and not linked from the user app. */
export default (_env: unknown, argv: { mode?: string }) =>
  createConfig({ name: 'ops', kind: 'console', dir: import.meta.dirname }, argv);
