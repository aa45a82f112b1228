import type { PublicClient } from 'viem';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { createEvmClient } from '../modules/chain/evm-client.ts';
import { signCancelIfAsked } from './signer-cancel.ts';
import { followUp, followUpOne } from './signer-follow-up.ts';
import { replace } from './signer-replace.ts';
import { broadcast, findMined, onNonceUsed, rebroadcast, settle } from './signer-settle.ts';
import { nextNonce, signOne } from './signer-sign.ts';
import type { SignerContext, SignerOptions } from './signer-types.ts';

export function createSignerContext(options: SignerOptions): SignerContext {
  const { db, now, account } = options;
  const batch = options.batch ?? 10;
  const replaceAfterMs = options.replaceAfterMs ?? 60_000;
  const maxReplacements = Math.min(32, Math.max(0, options.maxReplacements ?? 5));
  const log = options.log ?? (() => {});
  const clients = new Map<string, PublicClient>();

  function clientFor(network: EvmNetwork): PublicClient | undefined {
    const chain = options.chains()[network];
    if (!chain) return undefined;
    const cacheKey = `${network}|${chain.chainId}|${chain.rpcUrl}`;
    let client = clients.get(cacheKey);
    if (!client) {
      client = createEvmClient(chain.rpcUrl);
      clients.set(cacheKey, client);
    }
    return client;
  }

  const ctx: SignerContext = {
    db,
    now,
    account,
    batch,
    replaceAfterMs,
    maxReplacements,
    log,
    options,
    clientFor,
    broadcast: (...args) => broadcast(ctx, ...args),
    findMined: (...args) => findMined(ctx, ...args),
    settle: (...args) => settle(ctx, ...args),
    onNonceUsed: (...args) => onNonceUsed(ctx, ...args),
    rebroadcast: (...args) => rebroadcast(ctx, ...args),
    replace: (...args) => replace(ctx, ...args),
    followUpOne: (...args) => followUpOne(ctx, ...args),
    followUp: (...args) => followUp(ctx, ...args),
    cancelIfAsked: (...args) => signCancelIfAsked(ctx, ...args),
    nextNonce: (...args) => nextNonce(ctx, ...args),
    signOne: (...args) => signOne(ctx, ...args),
  };
  return ctx;
}
