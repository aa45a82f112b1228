/**
 * The signer's loop, one `tick()` at a time (signer/main.ts runs it in its own process).
 *
 * Safety rule: a withdrawal is signed at most once. The signed raw transaction, its nonce and hash
 * are written to `signer_transactions` in the same database transaction that moves the withdrawal
 * to transfer_in_progress, and only THEN broadcast. After a crash anywhere, the next tick finds the
 * recorded transaction and rebroadcasts the same bytes (same hash: a node treats it as one
 * transaction), so a withdrawal can never be paid twice. Nonces come from max(chain pending nonce,
 * last recorded nonce + 1), so a recorded but never-broadcast nonce is never handed out again.
 *
 * Stuck transactions: when an attempt has had no receipt for `replaceAfterMs` since its first
 * broadcast, a replacement with the SAME nonce and fees raised by at least 12.5% (and at least the
 * network's current estimate) is signed and recorded as the next attempt, again before it is
 * broadcast. The attempts of one nonce all pay the same withdrawal and at most one of them can be
 * mined: every tick looks for a receipt of ANY attempt, and the one found settles the withdrawal
 * (the others become `replaced`) in one database transaction guarded by the attempt's state.
 */
import { evmNetworks } from '../modules/catalogue/chains-file.ts';
import { listApprovedForSigning } from '../modules/withdrawals/signing.ts';
import { createSignerContext } from './signer-context.ts';
import type { SignerOptions, TickResult } from './signer-types.ts';
import { createSweeper } from './sweeper.ts';

export {
  type BroadcastOutcome,
  bumpFee,
  classifyBroadcastError,
  type SignerOptions,
  type TickResult,
} from './signer-types.ts';

export function createSigner(options: SignerOptions) {
  const ctx = createSignerContext(options);
  const { db, now, account, batch, followUp, signOne } = ctx;
  const sweeper = options.depositAccount ? createSweeper(ctx, options.sweepIntervalMs ?? 30_000) : undefined;
  return {
    address: account.address,
    async tick(): Promise<TickResult> {
      const result: TickResult = {
        signed: 0,
        settled: 0,
        failed: 0,
        rebroadcast: 0,
        replaced: 0,
        awaitingConfirmations: 0,
        sweeps: 0,
        sweepsSettled: 0,
        sweepsReplaced: 0,
        sweepsAwaitingConfirmations: 0,
      };
      // First the recorded ones (resume after a restart), then new work.
      await followUp(result);
      const enabled = evmNetworks.filter((n) => options.chains()[n] !== undefined);
      if (enabled.length === 0) return result;
      const approved = await listApprovedForSigning(db, enabled, batch, now());
      for (const w of approved) if (await signOne(w)) result.signed += 1;
      // Withdrawals first: a sweep round never delays a user's payout.
      await sweeper?.tick(result);
      return result;
    },
  };
}
