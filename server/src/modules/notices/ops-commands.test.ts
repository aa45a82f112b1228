import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { runOperatorsCommand } from '../operators/ops-commands.ts';
import { parseAnnouncementFile } from './announcement-file.ts';
import { runNoticesCommand } from './ops-commands.ts';

const database = useTestDatabase();

const FILE = `---
kind: announcement
category: maintenance
pinned: true
languages: [zh-CN, en]
---
<!-- lang: zh-CN -->
# 系统维护
周六 **02:00** 暂停充值。
<!-- lang: en -->
# Maintenance
Deposits pause on Saturday at **02:00**.
`;

describe('npm run ops -- notices / operators', () => {
  it('reads an announcement file: front matter, one section per language', () => {
    expect(parseAnnouncementFile(FILE)).toEqual({
      category: 'maintenance',
      pinned: true,
      texts: {
        'zh-CN': { title: '系统维护', bodyMd: '周六 **02:00** 暂停充值。' },
        en: { title: 'Maintenance', bodyMd: 'Deposits pause on Saturday at **02:00**.' },
      },
    });
    expect(() => parseAnnouncementFile(FILE.replace('[zh-CN, en]', '[en]'))).toThrow(/zh-CN/);
    expect(() => parseAnnouncementFile(FILE.replace('maintenance', 'gossip'))).toThrow(/category/);
    expect(() => parseAnnouncementFile(FILE.replace('kind: announcement', 'kind: system'))).toThrow(/kind/);
  });

  it('publishes, lists and withdraws from the command line', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-notice-'));
    const file = path.join(dir, 'maintenance.md');
    await writeFile(file, FILE);
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    expect(await runNoticesCommand(database.db, ['publish', file], out)).toBe(0);
    const id = /^published ([0-9a-f-]{36})$/.exec(lines[0] ?? '')?.[1] as string;
    expect(id).toBeDefined();
    expect(await runNoticesCommand(database.db, ['list'], out)).toBe(0);
    expect(lines[1]).toContain(`${id}\t`);
    expect(lines[1]).toContain('\tmaintenance\tpinned\tlive\ten,zh-CN\t系统维护');
    expect(await runNoticesCommand(database.db, ['withdraw', id], out)).toBe(0);
    expect(await runNoticesCommand(database.db, ['withdraw', id], out)).toBe(1);
    expect(await runNoticesCommand(database.db, ['publish'], out)).toBe(2);
  });

  it('adds an operator with roles and prints a one-time enrolment link; refuses bad roles, admin+finance, duplicates', async () => {
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    const run = (...args: string[]) => runOperatorsCommand(database.db, args, out, 'https://ops.example/ops/');
    expect(await run('add', 'bob_ops')).toBe(1);
    expect(await run('add', 'bob_ops', '--roles', 'root')).toBe(1);
    expect(await run('add', 'bob_ops', '--roles', 'admin,finance')).toBe(1);
    expect(await run('add', 'bob_ops', '--roles', 'support,compliance')).toBe(0);
    expect(await run('add', 'bob_ops', '--roles', 'support')).toBe(1);
    expect(await run('add', 'Bad Name', '--roles', 'support')).toBe(1);
    expect(lines).toEqual([
      expect.stringContaining('usage'),
      expect.stringContaining('usage'),
      expect.stringContaining('admin and finance'),
      'operator bob_ops added (support, compliance); enrolment link, valid 24 h, once:',
      expect.stringMatching(/^https:\/\/ops\.example\/ops\/#enrol=[A-Za-z0-9_-]{22}$/),
      expect.stringContaining('exists'),
      expect.stringContaining('3-32'),
    ]);
  });
});
