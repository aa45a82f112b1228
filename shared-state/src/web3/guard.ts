import { isAccountsPermissionRequest, takeExpectedTransaction } from './guard-transaction.ts';
import { UnsafeTransactionError } from './safety.ts';

/**
 * The wallet methods this app may ever call (reads, connecting, switching network, and the one
 * eth_sendTransaction the kit expects, its parameters checked here by assertAllowed's rules). Everything else (signing, permissions, batch
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
/** The guards themselves: guarding one again returns it (a second guard would use up the expected send). */
const guards = new WeakSet<object>();

/** The checks a request's parameters must pass besides its method name; throws to refuse. */
async function checkRequest(target: Eip1193Like, method: string, params: unknown): Promise<void> {
  if (!ALLOWED_WALLET_METHODS.has(method)) throw new UnsafeTransactionError(`refused to ask the wallet for ${method}`);
  if (method === 'wallet_requestPermissions' && !isAccountsPermissionRequest(params))
    throw new UnsafeTransactionError('refused to ask the wallet for any permission but its accounts');
  if (method === 'eth_sendTransaction') {
    const chainId = Number(await target.request({ method: 'eth_chainId' }));
    takeExpectedTransaction(params, chainId);
  }
}

/**
 * The provider as the app may use it: `request` only for allowed methods (eth_sendTransaction only as
 * the kit expects it, wallet_requestPermissions only for the accounts), no legacy entry points.
 */
export function guardProvider<P extends Eip1193Like>(provider: P): P {
  if (guards.has(provider)) return provider;
  const known = guarded.get(provider);
  if (known) return known as P;
  const proxy = new Proxy(provider, {
    get(target, property) {
      if (property === 'request') {
        return async (args: { method: string; params?: unknown }) => {
          const method = typeof args?.method === 'string' ? args.method : String(args?.method);
          // A copy, checked and then sent: the caller cannot change what was checked while it waits.
          const params = args?.params === undefined ? undefined : structuredClone(args.params);
          await checkRequest(target, method, params);
          return target.request(params === undefined ? { method } : { method, params });
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
  guards.add(proxy);
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
