import { type Chain, defineChain, encodeFunctionData, type Hex } from 'viem';
import { type Config, createConfig, custom, injected } from 'wagmi';
import {
  connect,
  disconnect,
  estimateFeesPerGas,
  estimateGas,
  getBalance,
  getConnection,
  getConnectors,
  readContract,
  reconnect,
  sendTransaction,
  simulateContract,
  switchChain,
  waitForTransactionReceipt,
  watchConnection,
  watchConnectors,
} from 'wagmi/actions';
import { toWeb3Error, web3Error } from './errors.ts';
import { guardConnector } from './guard.ts';
import { expectTransaction } from './guard-transaction.ts';
import { namedConnectors, offeredWallets, watchLateInjection } from './injected-wallets.ts';
import { guardPageProviders } from './page-guard.ts';
import { type AllowedTransaction, assertAllowed, checkInAbi, depositIntent, tokenTransferAbi } from './safety.ts';
import type { Web3ChainInfo, Web3Kit, Web3Snapshot } from './types.ts';

/**
 * The one wagmi instance of the app (loaded on first use by `loadWeb3`, shared by every remote
 * through @cw/shared-state): the injected connector plus every wallet announced by EIP-6963, reads
 * through the connected wallet's own provider (no RPC URL of ours is published), and the three
 * transactions the app may request, each checked by `assertAllowed` before the wallet sees it.
 */

/** Gas headroom over the estimate, in percent: what the wallet will be asked to reserve. */
const GAS_MARGIN_PERCENT = 120n;
const RECEIPT_TIMEOUT_MS = 120_000;

function toChain(info: Web3ChainInfo): Chain {
  return defineChain({
    id: info.chainId,
    name: info.name,
    nativeCurrency: { name: info.nativeSymbol, symbol: info.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
}

export function createKit(chains: readonly Web3ChainInfo[]): Web3Kit {
  const [first, ...rest] = chains.map(toChain);
  if (!first) throw web3Error('WALLET_WRONG_NETWORK', 'no EVM chain is available');
  // window.ethereum and every EIP-6963 announcement behind the guard, before wagmi asks wallets to announce.
  if (typeof window !== 'undefined') guardPageProviders(window);
  // Reads go through the connected wallet's own provider (whichever was chosen), never an RPC URL of ours.
  const transport = custom({
    async request({ method, params }) {
      const connector = getConnection(config).connector;
      if (!connector) throw web3Error('WALLET_NOT_CONNECTED');
      const provider = (await connector.getProvider()) as {
        request(args: { method: string; params?: unknown }): Promise<unknown>;
      };
      return provider.request({ method, params });
    },
  });
  const config: Config = createConfig({
    chains: [first, ...rest],
    // window.ethereum, then the wallets that inject under their own name (shown only where present).
    connectors: [injected({ shimDisconnect: true }), ...namedConnectors()],
    multiInjectedProviderDiscovery: true,
    transports: Object.fromEntries([first, ...rest].map((c) => [c.id, transport])),
  });
  // One immutable snapshot of the connection and the offered wallets, replaced on every change, so a
  // React store reads it without re-mapping connectors on each render.
  const read = (): Web3Snapshot => {
    const c = getConnection(config);
    return {
      state: {
        status: c.status === 'reconnecting' ? 'connecting' : c.status,
        address: c.address ?? null,
        chainId: c.chainId ?? null,
        walletName: c.connector?.name ?? null,
      },
      wallets: offeredWallets(getConnectors(config), typeof window === 'undefined' ? undefined : window),
    };
  };
  // Every wallet the page offers (injected, or announced later by EIP-6963) is reached only through the
  // guard: a method outside the allowlist throws before the wallet sees it.
  const guardAll = () => {
    for (const c of getConnectors(config)) guardConnector(c);
  };
  guardAll();
  let snapshot = read();
  const listeners = new Set<() => void>();
  const changed = () => {
    guardAll();
    snapshot = read();
    for (const l of listeners) l();
  };
  watchConnection(config, { onChange: changed });
  watchConnectors(config, { onChange: changed });
  // A provider injected a moment after load (a wallet's in-app browser): offered once it is there.
  if (typeof window !== 'undefined') watchLateInjection(window, changed);
  void reconnect(config).catch(() => {});

  const account = (): Hex => {
    const address = getConnection(config).address;
    if (!address) throw web3Error('WALLET_NOT_CONNECTED');
    return address;
  };

  const chainInfo = (chainId: number): Web3ChainInfo => {
    const info = chains.find((c) => c.chainId === chainId);
    if (!info) throw web3Error('WALLET_WRONG_NETWORK');
    return info;
  };

  async function send(intent: AllowedTransaction, chainId: number, request: { to: Hex; value: bigint; data?: Hex }) {
    const chain = chainInfo(chainId);
    assertAllowed(intent, { to: request.to, value: request.value, data: request.data }, chain);
    const from = account();
    if (getConnection(config).chainId !== chainId) throw web3Error('WALLET_WRONG_NETWORK');
    // The guard lets exactly this transaction through to the wallet, once, and checks it again there.
    const done = expectTransaction({ intent, chainId, chain, from });
    try {
      return await sendTransaction(config, {
        account: from,
        chainId,
        to: request.to,
        value: request.value,
        ...(request.data ? { data: request.data } : {}),
      });
    } finally {
      done();
    }
  }

  return {
    chains,
    snapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async connect(walletId) {
      guardAll();
      const connector = getConnectors(config).find((c) => c.id === walletId);
      if (!connector) throw web3Error('WALLET_NOT_FOUND');
      try {
        await connect(config, { connector });
      } catch (err) {
        throw toWeb3Error(err, 'WALLET_NOT_CONNECTED');
      }
    },
    async disconnect() {
      await disconnect(config).catch(() => {});
    },
    async switchChain(chainId) {
      try {
        await switchChain(config, { chainId });
      } catch (err) {
        throw toWeb3Error(err, 'WALLET_WRONG_NETWORK');
      }
    },
    async nativeBalance(chainId) {
      return (await getBalance(config, { address: account(), chainId })).value;
    },
    async tokenBalance(chainId, token) {
      return readContract(config, {
        chainId,
        address: token,
        abi: tokenTransferAbi,
        functionName: 'balanceOf',
        args: [account()],
      });
    },
    async checkIn({ chainId, contract, memberTag }) {
      const from = account();
      try {
        // 1. Some native coin at all: a wallet with none cannot pay any fee.
        const balance = (await getBalance(config, { address: from, chainId })).value;
        if (balance === 0n) throw web3Error('WALLET_GAS_SHORT');
        // 2. The call as the chain would run it: a revert is reported before any prompt.
        await simulateContract(config, {
          chainId,
          account: from,
          address: contract,
          abi: checkInAbi,
          functionName: 'checkIn',
          args: [memberTag],
        });
        // 3. The fee it will cost, against what the wallet holds.
        const data = encodeFunctionData({ abi: checkInAbi, functionName: 'checkIn', args: [memberTag] });
        const gas = await estimateGas(config, { chainId, account: from, to: contract, data });
        const fees = await estimateFeesPerGas(config, { chainId });
        const perGas = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
        if (balance < (gas * perGas * GAS_MARGIN_PERCENT) / 100n) throw web3Error('WALLET_GAS_SHORT');
        return await send({ kind: 'check-in', contract, memberTag }, chainId, { to: contract, value: 0n, data });
      } catch (err) {
        throw toWeb3Error(err, 'SIGN_FAILED');
      }
    },
    async deposit(input) {
      try {
        const intent = depositIntent(chainInfo(input.chainId), input);
        if (intent.kind === 'token-deposit') {
          const data = encodeFunctionData({
            abi: tokenTransferAbi,
            functionName: 'transfer',
            args: [input.depositAddress, input.amount],
          });
          return await send(intent, input.chainId, { to: intent.token, value: 0n, data });
        }
        return await send(intent, input.chainId, { to: input.depositAddress, value: input.amount });
      } catch (err) {
        throw toWeb3Error(err, 'WALLET_TX_FAILED');
      }
    },
    async waitForReceipt(chainId, hash) {
      const receipt = await waitForTransactionReceipt(config, { chainId, hash, timeout: RECEIPT_TIMEOUT_MS });
      return receipt.status;
    },
  };
}
