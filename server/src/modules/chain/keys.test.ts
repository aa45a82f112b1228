import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFiles } from './keygen.ts';
import { loadPublicKeys } from './keys.ts';

describe('public keys for the API process', () => {
  it('first start: the keygen child writes a 0600 mnemonic, xpubs and hot wallets; a restart keeps them', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-keys-'));
    const logs: string[] = [];
    const keys = await loadPublicKeys(dataDir, {}, (m) => logs.push(m));
    expect(keys.source).toBe('dev');
    expect(logs.join('\n')).toContain('DEVELOPMENT MNEMONIC GENERATED');
    const files = keyFiles(dataDir);
    expect(statSync(files.mnemonic).mode & 0o777).toBe(0o600);
    expect(keys.xpubs.bitcoin).toMatch(/^xpub/);
    expect(keys.hotWallets.ethereum).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // What the API reads is public only.
    expect(JSON.stringify(keys)).not.toContain(
      readFileSync(files.mnemonic, 'utf8').trim().split(' ').slice(0, 3).join(' '),
    );
    const again = await loadPublicKeys(dataDir, {});
    expect(again).toEqual(keys);
  }, 30_000);

  it('production: all xpubs and hot wallets from the environment, or an error when only some are set', async () => {
    const env = {
      XPUB_ETHEREUM: 'xpub-e',
      XPUB_BSC: 'xpub-b',
      XPUB_TRON: 'xpub-t',
      XPUB_BITCOIN: 'xpub-btc',
      XPUB_DOGECOIN: 'xpub-d',
      HOT_WALLET_ETHEREUM: '0x1111111111111111111111111111111111111111',
      HOT_WALLET_BSC: '0x2222222222222222222222222222222222222222',
    };
    const keys = await loadPublicKeys('/nonexistent', env);
    expect(keys.source).toBe('env');
    expect(keys.xpubs.tron).toBe('xpub-t');
    await expect(loadPublicKeys('/nonexistent', { XPUB_BSC: 'x' })).rejects.toThrow(/set all/);
  });
});
