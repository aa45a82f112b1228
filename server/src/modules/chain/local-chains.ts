import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Address,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  parseEther,
  publicActions,
} from 'viem';
import checkInArtifact from '../../../contracts/check-in.json' with { type: 'json' };
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { type CoinCode, coinNetworks } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { type AnvilChain, startAnvil } from './anvil.ts';
import { type ChainsFile, type ChainsFileEntry, chainsFilePath, readChainsFile } from './chain-config.ts';

/**
 * Development chains: one anvil per EVM network (state kept in DATA_DIR/chains), test ERC-20s
 * deployed per the catalogue, hot wallets funded, DATA_DIR/chains.json written.
 *
 * Transactions are sent with `eth_sendTransaction` from anvil's unlocked, pre-funded dev account,
 * so this process holds no private key.
 */
export const DEV_ACCOUNT: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

export const localChainIds: Record<EvmNetwork, number> = { ethereum: 31337, bsc: 5631337 };

const tokenNames: Partial<Record<CoinCode, string>> = {
  USDT: 'Tether USD (test)',
  USDC: 'USD Coin (test)',
  TUSD: 'TrueUSD (test)',
};

/** Native coin and whole token units given to the hot wallet when a chain is new. */
const HOT_WALLET_NATIVE = parseEther('10000');
const HOT_WALLET_TOKEN_UNITS = 1_000_000n;

export interface LocalChainsOptions {
  dataDir: string;
  networks: readonly EvmNetwork[];
  hotWallets: Partial<Record<EvmNetwork, Address>>;
  /** Seconds between blocks (dev: 1, so confirmations count up); unset: automine. */
  blockTimeS?: number;
  log?: (msg: string, details?: Record<string, unknown>) => void;
}

export interface LocalChains {
  chains: Partial<Record<EvmNetwork, AnvilChain>>;
  file: ChainsFile;
  stop(): Promise<void>;
}

export function devClient(rpcUrl: string, chainId: number) {
  const chain = defineChain({
    id: chainId,
    name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  return createTestClient({ chain, mode: 'anvil', transport: http(rpcUrl), pollingInterval: 50 })
    .extend(publicActions)
    .extend(() => ({ wallet: createWalletClient({ chain, transport: http(rpcUrl), pollingInterval: 50 }) }));
}

type DevClient = ReturnType<typeof devClient>;

async function hasCode(client: DevClient, address: Address | undefined): Promise<boolean> {
  if (!address) return false;
  const code = await client.getCode({ address });
  return code !== undefined && code !== '0x';
}

/** The rewards check-in contract: the one already on the chain, or a new deployment. */
async function provisionCheckIn(client: DevClient, known: Address | undefined): Promise<Address> {
  if (known && (await hasCode(client, known))) return known;
  const hash = await client.wallet.deployContract({
    abi: checkInArtifact.abi,
    bytecode: checkInArtifact.bytecode as Hex,
    account: DEV_ACCOUNT,
  });
  await client.mine({ blocks: 1 });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 20_000 });
  if (!receipt.contractAddress) throw new Error('deploying the check-in contract failed');
  return getAddress(receipt.contractAddress);
}

/**
 * Deploys the catalogue's tokens of a network (those not already on the chain) and the check-in
 * contract, and funds the hot wallet.
 */
async function provision(
  network: EvmNetwork,
  anvil: AnvilChain,
  previous: ChainsFileEntry | undefined,
  hotWallet: Address | undefined,
): Promise<ChainsFileEntry> {
  const client = devClient(anvil.rpcUrl, anvil.chainId);
  const tokens: ChainsFileEntry['tokens'] = {};
  const pending: { coin: CoinCode; hash: Hex; decimals: number }[] = [];
  for (const pair of coinNetworks) {
    if (pair.network !== network || pair.tokenContract === null) continue;
    const known = previous?.tokens[pair.coin];
    if (await hasCode(client, known)) {
      tokens[pair.coin] = known;
      continue;
    }
    const hash = await client.wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode as Hex,
      args: [tokenNames[pair.coin] ?? pair.coin, pair.coin, pair.chainDecimals],
      account: DEV_ACCOUNT,
    });
    pending.push({ coin: pair.coin, hash, decimals: pair.chainDecimals });
  }
  const checkIn = await provisionCheckIn(client, previous?.checkIn);
  if (pending.length === 0) return { chainId: anvil.chainId, rpcUrl: anvil.rpcUrl, tokens, checkIn };
  // A new chain (or a lost state): deploy, then fund the hot wallet. Mine now instead of waiting a block time.
  await client.mine({ blocks: 1 });
  const mints: Hex[] = [];
  for (const p of pending) {
    const receipt = await client.waitForTransactionReceipt({ hash: p.hash, timeout: 20_000 });
    if (!receipt.contractAddress) throw new Error(`deploying ${p.coin} on ${network} failed`);
    tokens[p.coin] = getAddress(receipt.contractAddress);
    if (hotWallet) {
      mints.push(
        await client.wallet.writeContract({
          address: receipt.contractAddress,
          abi: artifact.abi,
          functionName: 'mint',
          args: [hotWallet, HOT_WALLET_TOKEN_UNITS * 10n ** BigInt(p.decimals)],
          account: DEV_ACCOUNT,
          chain: null,
        }),
      );
    }
  }
  if (hotWallet) await client.setBalance({ address: hotWallet, value: HOT_WALLET_NATIVE });
  if (mints.length > 0) {
    await client.mine({ blocks: 1 });
    for (const hash of mints) {
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: 20_000 });
      if (receipt.status !== 'success') throw new Error(`minting to the hot wallet on ${network} failed`);
    }
  }
  return { chainId: anvil.chainId, rpcUrl: anvil.rpcUrl, tokens, checkIn };
}

/** `<dir>/<network>.pid`: which server process started which anvil. */
interface PidFile {
  serverPid: number;
  anvilPid: number;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function readPidFile(file: string): PidFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PidFile>;
    const ok = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 1;
    return ok(parsed.serverPid) && ok(parsed.anvilPid)
      ? { serverPid: parsed.serverPid, anvilPid: parsed.anvilPid }
      : undefined;
  } catch {
    return undefined;
  }
}

/** True when `pid` is an anvil running on this very state file (checked through /proc). */
function isAnvilOf(pid: number, stateFile: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return path.basename(cmdline[0] ?? '').startsWith('anvil') && cmdline.includes(stateFile);
  } catch {
    return false;
  }
}

/**
 * An anvil left running by a server that was killed without a shutdown (SIGKILL, crash) still
 * holds the state file: stop it first, so two chains never write one state.
 */
async function stopOrphan(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  // It dumps its state on SIGTERM: wait for that before the new chain loads the file.
  for (let waited = 0; existsSync(`/proc/${pid}`) && waited < 5_000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (existsSync(`/proc/${pid}`)) process.kill(pid, 'SIGKILL');
}

export async function startLocalChains(options: LocalChainsOptions): Promise<LocalChains> {
  const dir = path.join(options.dataDir, 'chains');
  mkdirSync(dir, { recursive: true });
  const previous = readChainsFile(options.dataDir);
  const chains: Partial<Record<EvmNetwork, AnvilChain>> = {};
  const stop = async () => {
    await Promise.all(Object.values(chains).map((c) => c.stop()));
    for (const network of Object.keys(chains)) rmSync(path.join(dir, `${network}.pid`), { force: true });
  };
  try {
    const started = await Promise.all(
      options.networks.map(async (network) => {
        const stateFile = path.join(dir, `${network}-state.json`);
        const pidFile = path.join(dir, `${network}.pid`);
        const owner = readPidFile(pidFile);
        if (owner && isAnvilOf(owner.anvilPid, stateFile)) {
          const entry = previous[network];
          if (owner.serverPid !== process.pid && alive(owner.serverPid) && entry) {
            // Another live server on this DATA_DIR runs the chain: share it rather than fight over the state.
            options.log?.(`local chain ${network} shared with server pid ${owner.serverPid} at ${entry.rpcUrl}`);
            return [network, entry] as const;
          }
          await stopOrphan(owner.anvilPid);
        }
        const anvil = await startAnvil({
          chainId: localChainIds[network],
          stateFile,
          ...(options.blockTimeS === undefined ? {} : { blockTimeS: options.blockTimeS }),
        });
        chains[network] = anvil;
        const pids: PidFile = { serverPid: process.pid, anvilPid: anvil.process.pid ?? 0 };
        writeFileSync(pidFile, `${JSON.stringify(pids)}\n`);
        const entry = await provision(network, anvil, previous[network], options.hotWallets[network]);
        options.log?.(`local chain ${network} at ${anvil.rpcUrl}`, {
          network,
          chainId: anvil.chainId,
          tokens: entry.tokens,
        });
        return [network, entry] as const;
      }),
    );
    const file: ChainsFile = { ...previous, ...Object.fromEntries(started) };
    const target = chainsFilePath(options.dataDir);
    writeFileSync(`${target}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(`${target}.tmp`, target);
    return { chains, file, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
