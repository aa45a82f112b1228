import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { raiseChainAlert } from './chain-alerts.ts';
import { runReorgsCommand } from './ops-commands.ts';

describe('chain alerts (migration 0055)', () => {
  const database = useTestDatabase();
  const NOW = new Date('2026-11-27T08:00:00Z');

  it('one open alert per (network, kind, key); listed and resolved by `ops reorgs`; raised again once resolved', async () => {
    const db = database.db;
    const alert = {
      network: 'ethereum',
      kind: 'fork_not_found',
      dedupeKey: 'cursor:9:0xab',
      detail: 'no fork',
    } as const;
    expect(await raiseChainAlert(db, alert, NOW)).toBe(true);
    expect(await raiseChainAlert(db, alert, NOW)).toBe(false);
    const lines: string[] = [];
    expect(await runReorgsCommand(db, ['list'], (l) => lines.push(l))).toBe(0);
    const listed = lines.find((l) => l.startsWith('chain-alert\t'));
    expect(listed).toContain('ethereum\tfork_not_found\tno fork');
    const id = listed?.split('\t')[1] ?? '';
    expect(await runReorgsCommand(db, ['resolve-chain', id], () => {})).toBe(2);
    expect(await runReorgsCommand(db, ['resolve-chain', id, '--note', 'node resynced'], () => {})).toBe(0);
    expect(await runReorgsCommand(db, ['resolve-chain', id, '--note', 'again'], () => {})).toBe(1);
    expect(await raiseChainAlert(db, alert, NOW)).toBe(true);
  });
});
