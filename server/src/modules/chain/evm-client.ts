import { createPublicClient, http, type PublicClient } from 'viem';

/** Per request: a stalled node fails the call (retried next tick) instead of holding the loop. */
const RPC_TIMEOUT_MS = 10_000;

/**
 * The one way the server talks to an EVM node (watchers, order scanners, the signer): JSON-RPC over
 * HTTP, calls of one tick batched (up to 50 per request).
 */
export function createEvmClient(rpcUrl: string): PublicClient {
  return createPublicClient({
    transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS, batch: { batchSize: 50, wait: 0 } }),
  });
}
