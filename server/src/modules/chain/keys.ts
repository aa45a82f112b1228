import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsChildArgs } from '../../lib/ts-child.ts';
import { type NetworkCode, networkCodes } from '../catalogue/catalogue.ts';
import { keyFiles } from './keygen.ts';

/**
 * Public key material for the API process: account xpubs (deposit addresses) and hot wallet
 * addresses. Never a private key or mnemonic: those stay in the keygen child and the signer.
 */
export interface PublicKeys {
  xpubs: Record<NetworkCode, string>;
  hotWallets: { ethereum: `0x${string}`; bsc: `0x${string}` };
  source: 'env' | 'dev';
}

const keygenScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'keygen.ts');
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

const KEYGEN_TIMEOUT_MS = 30_000;

function fromEnv(env: NodeJS.ProcessEnv): PublicKeys | undefined {
  const xpubs = Object.fromEntries(networkCodes.map((n) => [n, env[`XPUB_${n.toUpperCase()}`]?.trim() || undefined]));
  const eth = env.HOT_WALLET_ETHEREUM?.trim();
  const bsc = env.HOT_WALLET_BSC?.trim();
  const given = [...Object.values(xpubs), eth, bsc].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given !== networkCodes.length + 2) {
    throw new Error('set all of XPUB_<NETWORK> (5 networks) and HOT_WALLET_ETHEREUM/HOT_WALLET_BSC, or none');
  }
  return {
    xpubs: xpubs as Record<NetworkCode, string>,
    hotWallets: { ethereum: eth as `0x${string}`, bsc: bsc as `0x${string}` },
    source: 'env',
  };
}

function runKeygenChild(dataDir: string, log: (msg: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsChildArgs(keygenScript, [dataDir]), {
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'pipe'],
      timeout: KEYGEN_TIMEOUT_MS,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (stderr.trim()) log(stderr);
      if (code === 0) resolve();
      else reject(new Error(`keygen child exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

/**
 * Production: xpubs/hot wallets from the environment. Development: DATA_DIR/keys, created on the
 * first start by the keygen child process.
 */
export async function loadPublicKeys(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  log: (msg: string) => void = () => {},
): Promise<PublicKeys> {
  const configured = fromEnv(env);
  if (configured) return configured;
  const files = keyFiles(dataDir);
  if (!existsSync(files.xpubs) || !existsSync(files.hotWallets)) await runKeygenChild(dataDir, log);
  const xpubs = JSON.parse(readFileSync(files.xpubs, 'utf8')) as Record<NetworkCode, string>;
  const hotWallets = JSON.parse(readFileSync(files.hotWallets, 'utf8')) as PublicKeys['hotWallets'];
  for (const n of networkCodes) if (!xpubs[n]?.startsWith('xpub')) throw new Error(`xpubs.json lacks ${n}`);
  return { xpubs, hotWallets, source: 'dev' };
}
