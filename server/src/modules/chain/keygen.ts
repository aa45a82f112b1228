/**
 * Development key generation, run as a CHILD PROCESS of the server (never inside the API process):
 *   node --import tsx server/src/modules/chain/keygen.ts <dataDir>
 *
 * On first start without configuration it writes, under <dataDir>/keys:
 * - dev-mnemonic.txt (mode 0600): the development mnemonic; only this child and the signer read it
 * - xpubs.json: account-level xpubs for deposits { ethereum, bsc, tron, bitcoin, dogecoin }
 * - hot-wallets.json: { ethereum, bsc } hot wallet addresses (m/44'/60'/1'/0/0)
 * An existing mnemonic is kept; the public files are (re)written from it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { networkCodes } from '../catalogue/catalogue.ts';
import { accountXpubFromSeed, evmAddressFromSeed, hotWalletPath } from './derive.ts';

export const keyFiles = (dataDir: string) => {
  const dir = path.join(dataDir, 'keys');
  return {
    dir,
    mnemonic: path.join(dir, 'dev-mnemonic.txt'),
    xpubs: path.join(dir, 'xpubs.json'),
    hotWallets: path.join(dir, 'hot-wallets.json'),
  };
};

function writeAtomic(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, file);
}

/** Returns true when a new mnemonic was generated. */
export function runKeygen(dataDir: string, warn: (msg: string) => void): boolean {
  const files = keyFiles(dataDir);
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  let created = false;
  if (!existsSync(files.mnemonic)) {
    // 'wx' fails if another start created it meanwhile: never overwrite a mnemonic.
    writeFileSync(files.mnemonic, `${generateMnemonic(wordlist, 256)}\n`, { mode: 0o600, flag: 'wx' });
    created = true;
  }
  const mnemonic = readFileSync(files.mnemonic, 'utf8').trim();
  if (!validateMnemonic(mnemonic, wordlist)) throw new Error(`${files.mnemonic} is not a valid BIP39 mnemonic`);
  const seed = mnemonicToSeedSync(mnemonic);
  const xpubs = Object.fromEntries(networkCodes.map((n) => [n, accountXpubFromSeed(seed, n)]));
  const hot = evmAddressFromSeed(seed, hotWalletPath);
  writeAtomic(files.xpubs, `${JSON.stringify(xpubs, null, 2)}\n`, 0o644);
  writeAtomic(files.hotWallets, `${JSON.stringify({ ethereum: hot, bsc: hot }, null, 2)}\n`, 0o644);
  if (created) {
    warn(
      [
        '',
        '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
        `!! DEVELOPMENT MNEMONIC GENERATED: ${files.mnemonic}`,
        '!! It controls the deposit addresses and the hot wallet of THIS data folder.',
        '!! Never use it with real funds. Production: set XPUB_<NETWORK> and HOT_WALLET_<NETWORK>.',
        '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
        '',
      ].join('\n'),
    );
  }
  return created;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dataDir = process.argv[2];
  if (!dataDir) {
    console.error('usage: keygen.ts <dataDir>');
    process.exit(2);
  }
  runKeygen(path.resolve(dataDir), (msg) => console.error(msg));
}
