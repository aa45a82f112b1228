import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { runRewardsCommand } from './ops-commands.ts';

describe('npm run ops -- rewards', () => {
  const database = useTestDatabase();
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runRewardsCommand(database.db, args, (l) => lines.push(l));
    return { code, lines };
  };

  it('funds the pool once per reference and shows it; refuses bad input without booking', async () => {
    expect((await run('pool')).lines).toEqual(['the rewards pool is empty']);
    expect((await run('fund', 'USDT', '250.5', 'wire-2026-11-25')).lines[0]).toMatch(/^funded 250.5 USDT/);
    expect((await run('fund', 'USDT', '250.5', 'wire-2026-11-25')).lines).toEqual([
      'already funded under wire-2026-11-25',
    ]);
    expect((await run('pool')).lines).toEqual(['USDT\t250500000']);
    expect((await run('fund', 'XYZ', '1', 'r1')).code).toBe(1);
    expect((await run('fund', 'USDT', '-1', 'r2')).code).toBe(1);
    expect((await run('fund', 'USDT', '1.0000001', 'r3')).code).toBe(1);
    expect((await run('fund', 'USDT', '99999999', 'r4')).code).toBe(1);
    expect((await run('fund', 'USDT', '1', 'bad reference!')).code).toBe(1);
    expect((await run('fund', 'USDT')).code).toBe(2);
    expect((await run('pool')).lines).toEqual(['USDT\t250500000']);
    expect((await reconcile(database.db)).ok).toBe(true);
  });
});
