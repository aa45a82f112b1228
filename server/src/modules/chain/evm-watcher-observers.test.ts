import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { transferEvent } from './evm-transfers.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import type { devClient, LocalChains } from './local-chains.ts';
import { startTestChain } from './test-chain.ts';
import type { EvmLogObserver } from './watcher.ts';

/**
 * Issue 36 item 8 / issue 39: a reorg above confirmed contract events (rewards check-ins) is logged as
 * what it is: confirmed check-ins above the fork, not "credited deposits".
 */
describe('EVM watcher: a reorg above confirmed observer events', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-observers-'));
  }, 120_000);
  afterAll(() => chains?.stop());

  it('logs confirmed check-ins above the fork as check-ins, never as credited deposits', async () => {
    const observer: EvmLogObserver = {
      address: `0x${'11'.repeat(20)}`,
      event: transferEvent,
      record: async () => 0,
      dropAbove: async () => 2, // two confirmed check-ins above the fork
      confirm: async () => 0,
    };
    const logs: string[] = [];
    const w = createEvmWatcher({
      db: database.db,
      runtime,
      startBlock: 0n,
      observers: [observer],
      log: (msg) => logs.push(msg),
    });
    const snapshot = await client.snapshot();
    await client.mine({ blocks: 3 });
    for (let i = 0; i < 20; i++) if (!(await w.tick()).behind) break;
    await client.revert({ id: snapshot });
    await client.increaseTime({ seconds: 60 });
    await client.mine({ blocks: 5 });
    let forked = false;
    for (let i = 0; i < 20; i++) {
      const r = await w.tick();
      forked ||= r.reorgForkBlock !== undefined;
      if (!r.behind) break;
    }
    expect(forked).toBe(true);
    const reorgLines = logs.filter((m) => /reorg/i.test(m));
    expect(reorgLines.some((m) => /confirmed check-ins above the fork/.test(m))).toBe(true);
    expect(reorgLines.some((m) => /deposits/.test(m))).toBe(false);
  }, 120_000);
});
