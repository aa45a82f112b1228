import { createWallet, installMockWallet } from '@johanneskares/wallet-mock';
import { expect, type Page } from '@playwright/test';
import { createPublicClient, decodeFunctionData, defineChain, getAddress, type Hex, http, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mineBlocks } from '../wallet/wallet-helpers.ts';
import { EIP6963, type InjectionMode, installInjectionMode } from './wallet-mock-modes.ts';

/**
 * A real EIP-1193 wallet in the page (@johanneskares/wallet-mock, announced by EIP-6963), signing with
 * a local key against the e2e server's anvil, that records every request the app makes and can play
 * the user refusing a prompt. Errors keep their JSON-RPC code and revert data across the
 * Playwright bridge (which only carries a message), and the provider emits chainChanged after a
 * switch, as a real wallet does.
 */
export interface RecordedRequest {
  method: string;
  params: unknown;
}

export interface RecordingWallet {
  address: Hex;
  privateKey: Hex;
  requests: RecordedRequest[];
  /** The hashes of the transactions the wallet sent (eth_sendTransaction answered), in order. */
  sent: Hex[];
  /** The next request of this method is refused as by the user (code 4001). */
  rejectNext(method: string): void;
}

const BRIDGE_ERROR = 'CW_RPC_ERROR ';

interface RpcFailure {
  code?: number;
  message?: string;
  data?: unknown;
  cause?: unknown;
}

/** The innermost JSON-RPC failure (code and revert data) of a viem error. */
function rpcFailure(err: unknown): { code: number; message: string; data?: unknown } {
  let current = err as RpcFailure | undefined;
  let found: { code: number; message: string; data?: unknown } | undefined;
  for (let depth = 0; current && depth < 10; depth++) {
    if (typeof current.code === 'number')
      found = { code: current.code, message: current.message ?? '', data: current.data };
    current = current.cause as RpcFailure | undefined;
  }
  return found ?? { code: -32603, message: (err as Error)?.message ?? String(err) };
}

export async function installRecordingWallet(
  page: Page,
  chain: { chainId: number; rpcUrl: string },
  privateKey: Hex = generatePrivateKey(),
  /** The network the wallet starts on (another one than the app's: the app must offer a switch). */
  startChainId: number = chain.chainId,
  /** How the provider reaches the page: EIP-6963, or a legacy, late or wallet-named injection. */
  mode: InjectionMode = EIP6963,
): Promise<RecordingWallet> {
  const account = privateKeyToAccount(privateKey);
  const local = defineChain({
    id: chain.chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const inner = createWallet(account, { [chain.chainId]: http(chain.rpcUrl) }, local);
  const requests: RecordedRequest[] = [];
  const sent: Hex[] = [];
  const rejecting = new Set<string>();
  // The wallet's own idea of its network (wallet-mock would ask the node, which is always the local chain).
  let chainId = startChainId;
  // Like a real wallet: no account is shown to the site until the user connects it (wallet-mock
  // answers eth_accounts always, which would make every page connect by itself).
  let authorized = false;
  const wallet = {
    async request({ method, params }: { method: string; params?: unknown }) {
      requests.push({ method, params });
      if (rejecting.delete(method)) {
        throw new Error(`${BRIDGE_ERROR}${JSON.stringify({ code: 4001, message: 'User rejected the request.' })}`);
      }
      if (method === 'eth_chainId') return `0x${chainId.toString(16)}`;
      if (method === 'eth_requestAccounts' || method === 'wallet_requestPermissions') authorized = true;
      if (method === 'wallet_revokePermissions') authorized = false;
      if (method === 'eth_accounts' && !authorized) return [];
      if (method === 'wallet_switchEthereumChain') {
        const wanted = Number((params as [{ chainId: string }])[0].chainId);
        if (wanted !== chain.chainId) {
          throw new Error(`${BRIDGE_ERROR}${JSON.stringify({ code: 4902, message: 'Unrecognized chain ID' })}`);
        }
        chainId = wanted;
      }
      try {
        // wallet-mock hands the JSON-RPC value (hex) to viem, which wants a bigint.
        const forwarded =
          method === 'eth_sendTransaction' && Array.isArray(params)
            ? [{ ...params[0], ...(params[0]?.value ? { value: BigInt(params[0].value) } : {}) }]
            : params;
        const result = await inner.request({ method, params: forwarded } as Parameters<typeof inner.request>[0]);
        if (method === 'eth_sendTransaction') sent.push(result as Hex);
        return result;
      } catch (err) {
        throw new Error(`${BRIDGE_ERROR}${JSON.stringify(rpcFailure(err))}`);
      }
    },
  };
  await page.addInitScript((marker: string) => {
    type Provider = { request: (a: unknown) => Promise<unknown>; on: unknown; removeListener: unknown; __cw?: true };
    window.addEventListener(
      'eip6963:announceProvider',
      (event) => {
        const provider = (event as CustomEvent<{ provider: Provider }>).detail.provider;
        if (provider.__cw) return;
        provider.__cw = true;
        const listeners = new Map<string, Set<(v: unknown) => void>>();
        provider.on = (name: string, fn: (v: unknown) => void) => {
          if (!listeners.has(name)) listeners.set(name, new Set());
          listeners.get(name)?.add(fn);
        };
        provider.removeListener = (name: string, fn: (v: unknown) => void) => listeners.get(name)?.delete(fn);
        const original = provider.request.bind(provider);
        provider.request = async (args: unknown) => {
          try {
            const result = await original(args);
            const { method, params } = args as { method: string; params?: [{ chainId: string }] };
            if (method === 'wallet_switchEthereumChain' && params) {
              for (const fn of listeners.get('chainChanged') ?? []) fn(params[0].chainId);
            }
            return result;
          } catch (err) {
            const text = String((err as Error)?.message ?? err);
            const at = text.indexOf(marker);
            if (at < 0) throw err;
            const failure = JSON.parse(text.slice(at + marker.length)) as {
              code: number;
              message: string;
              data?: unknown;
            };
            throw Object.assign(new Error(failure.message), failure);
          }
        };
        // Capture, registered first: the mock is fitted to the raw provider before the app's guard wraps it.
      },
      { capture: true },
    );
  }, BRIDGE_ERROR);
  await installInjectionMode(page, mode);
  await installMockWallet({ page, wallet });
  return { address: account.address, privateKey, requests, sent, rejectNext: (method) => rejecting.add(method) };
}

const READS = new Set([
  'eth_requestAccounts',
  'eth_accounts',
  'eth_chainId',
  'net_version',
  'wallet_switchEthereumChain',
  'wallet_requestPermissions',
  'wallet_getPermissions',
  'wallet_revokePermissions',
  'eth_call',
  'eth_estimateGas',
  'eth_getBalance',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getCode',
]);

const checkInAbi = parseAbi(['function checkIn(bytes32 memberTag)']);
const transferAbi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);

export interface AllowedCalls {
  checkIn?: { contract: Hex; memberTag: Hex };
  /** The user's own deposit address and what they typed (chain units), native or per token. */
  deposits?: { depositAddress: Hex; native?: bigint[]; tokens?: { token: Hex; amount: bigint }[] };
}

/**
 * Every recorded request must be a read, a connection or network switch, or one of the allowed
 * transactions: checkIn(memberTag) on the check-in contract with value 0, or a deposit of the typed
 * amount to the user's own deposit address (native value, or the token's transfer). Returns the
 * violations (an empty list passes).
 */
export function violations(requests: readonly RecordedRequest[], allowed: AllowedCalls): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: string) => typeof a === 'string' && getAddress(a) === getAddress(b);
  for (const r of requests) {
    if (READS.has(r.method)) continue;
    if (r.method !== 'eth_sendTransaction') {
      out.push(`method ${r.method}`);
      continue;
    }
    const tx = (r.params as [{ to?: string; data?: Hex; value?: Hex }])[0];
    const value = BigInt(tx.value ?? '0x0');
    const data = tx.data && tx.data !== '0x' ? tx.data : undefined;
    const check = allowed.checkIn;
    if (check && same(tx.to, check.contract) && value === 0n && data) {
      const call = decodeFunctionData({ abi: checkInAbi, data });
      if (call.functionName === 'checkIn' && call.args[0] === check.memberTag) continue;
    }
    const dep = allowed.deposits;
    if (dep && !data && same(tx.to, dep.depositAddress) && dep.native?.includes(value)) continue;
    if (dep && data && value === 0n) {
      const token = dep.tokens?.find((t) => same(tx.to, t.token));
      try {
        const call = decodeFunctionData({ abi: transferAbi, data });
        if (
          token &&
          call.functionName === 'transfer' &&
          same(call.args[0], dep.depositAddress) &&
          call.args[1] === token.amount
        )
          continue;
      } catch {
        // not a transfer: a violation below
      }
    }
    out.push(`eth_sendTransaction ${JSON.stringify(tx)}`);
  }
  return out;
}

/** Native coin for gas from anvil (no faucet key needed: anvil_setBalance). */
export async function fundNative(rpcUrl: string, address: string, wei: bigint): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'anvil_setBalance',
      params: [address, `0x${wei.toString(16)}`],
    }),
  });
  const body = (await response.json()) as { error?: unknown };
  if (body.error) throw new Error(`anvil_setBalance failed: ${JSON.stringify(body.error)}`);
}

/**
 * Waits for the wallet's `index`-th transaction (0-based) to be sent and mined, then mines `confirmations`
 * blocks at once: what the app then waits for (a check-in confirmed at the network's confirmations) arrives
 * without a block a second of waiting. The transaction is the app's own; only the later blocks are ours.
 */
export async function mineAfterSent(
  wallet: RecordingWallet,
  rpcUrl: string,
  confirmations: number,
  index = 0,
): Promise<void> {
  await expect.poll(() => wallet.sent.length, { timeout: 30_000 }).toBeGreaterThan(index);
  const hash = wallet.sent[index] as Hex;
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 100 });
  await client.waitForTransactionReceipt({ hash, timeout: 30_000 });
  await mineBlocks(rpcUrl, confirmations);
}
