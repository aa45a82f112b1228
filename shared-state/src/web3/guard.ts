import { UnsafeTransactionError } from './safety.ts';

/**
 * The wallet methods this app may ever call (reads, connecting, switching network, and the one
 * eth_sendTransaction that assertAllowed has checked). Everything else (signing, permissions, batch
 * calls, adding a chain with an RPC of someone's choosing) is refused before it reaches the wallet,
 * whatever code asks and however the method name was built: the bundle check cannot see names made at
 * run time, this guard does.
 */
export const ALLOWED_WALLET_METHODS: ReadonlySet<string> = new Set([
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
  'eth_sendTransaction',
]);

/** Legacy EIP-1193 entry points that would go round `request`: refused outright. */
const LEGACY_ENTRY_POINTS = new Set(['send', 'sendAsync', 'enable']);

interface Eip1193Like {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

const guarded = new WeakMap<object, object>();

/** The provider as the app may use it: `request` only for allowed methods, no legacy entry points. */
export function guardProvider<P extends Eip1193Like>(provider: P): P {
  const known = guarded.get(provider);
  if (known) return known as P;
  const proxy = new Proxy(provider, {
    get(target, property) {
      if (property === 'request') {
        return (args: { method: string; params?: unknown }) => {
          const method = typeof args?.method === 'string' ? args.method : String(args?.method);
          if (!ALLOWED_WALLET_METHODS.has(method)) {
            return Promise.reject(new UnsafeTransactionError(`refused to ask the wallet for ${method}`));
          }
          return target.request(args);
        };
      }
      if (typeof property === 'string' && LEGACY_ENTRY_POINTS.has(property)) {
        return () => Promise.reject(new UnsafeTransactionError(`refused the legacy wallet call ${property}`));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  guarded.set(provider, proxy);
  return proxy;
}

interface ConnectorLike {
  getProvider(...args: never[]): Promise<unknown>;
}
const wrappedConnectors = new WeakSet<object>();

/** Every provider a connector hands out (to wagmi's actions and to our reads) goes through the guard. */
export function guardConnector(connector: ConnectorLike): void {
  if (wrappedConnectors.has(connector)) return;
  wrappedConnectors.add(connector);
  const original = connector.getProvider.bind(connector);
  connector.getProvider = async (...args: never[]) => {
    const provider = await original(...args);
    return provider && typeof provider === 'object' && 'request' in provider
      ? guardProvider(provider as Eip1193Like)
      : provider;
  };
}
