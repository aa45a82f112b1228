import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { findOperatorByName } from '../operators/repository.ts';
import { requestNonceCancel } from './nonce-cancel.ts';
import { listByState } from './repository.ts';
import { createWithdrawalReview } from './review-service.ts';
import { reviewStates, type WithdrawalState, withdrawalStates } from './state-machine.ts';

/**
 * `npm run ops -- withdrawals list [--state <state>]` (default: both review states), `... approve <id> --operator <name>`,
 * `... reject <id> --operator <name> --reason "..."`, `... second-look <id> --operator <name> --reason "..."`,
 * `... cancel-nonce <id> --operator <name> --reason "..."` (a transfer in progress whose nonce is dead: the
 * signer replaces it by a zero-value self-transfer and the withdrawal fails, funds back, only once that is
 * mined; nonce-cancel.ts). Approve, reject and second look go through the console's service and rules
 * (review-service.ts, four-eyes.ts): the named operator (an enabled one) needs the role, is recorded on the
 * decision, the withdrawal and in the audit log, and four eyes hold: the CLI has no price feed, so each
 * approval it gives is weighed as unvalued and needs a second one (fail closed). The CLI gives FIRST
 * approvals only (review-32wd M2): at the shell a typed `--operator` name proves nobody's identity, so one
 * person could name two operators; the second approval is given in the console by an operator signed in
 * with a passkey or password and authenticator code. A withdrawal awaiting its second approval is refused.
 * Returns the exit code: 0 done, 1 refused (not in review, unknown id, role, four eyes), 2 usage.
 */
export const withdrawalsUsage =
  'usage: npm run ops -- withdrawals list [--state <state>] | approve <id> --operator <name> | reject <id> --operator <name> --reason "<text>" | second-look <id> --operator <name> --reason "<text>" | cancel-nonce <id> --operator <name> --reason "<text>"';

const LIST_LIMIT = 200;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export async function runWithdrawalsCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub, id] = args;
  if (sub === 'list') {
    const state = option(args, '--state');
    if (state !== undefined && !(withdrawalStates as readonly string[]).includes(state)) {
      out(`unknown state ${state}; one of ${withdrawalStates.join(', ')}`);
      return 2;
    }
    const states = state === undefined ? reviewStates : [state as WithdrawalState];
    const rows = await listByState(db, states, LIST_LIMIT);
    for (const r of rows) {
      out(
        [
          r.id,
          r.created_at.toISOString(),
          r.user_id,
          `${r.amount_minor} ${r.coin}`,
          r.network,
          r.address,
          r.state,
        ].join('\t'),
      );
    }
    out(
      `${rows.length} withdrawal(s) ${states.join(' or ')}${rows.length === LIST_LIMIT ? ` (first ${LIST_LIMIT})` : ''}`,
    );
    return 0;
  }
  if (
    (sub === 'approve' || sub === 'reject' || sub === 'second-look' || sub === 'cancel-nonce') &&
    id &&
    uuid.test(id)
  ) {
    const reason = option(args, '--reason')?.trim();
    const operatorName = option(args, '--operator')?.trim();
    if ((sub !== 'approve' && !reason) || !operatorName) {
      out(withdrawalsUsage);
      return 2;
    }
    const operator = await findOperatorByName(db, operatorName);
    if (!operator || operator.disabled_at !== null) {
      out(`refused: no enabled operator ${operatorName}`);
      return 1;
    }
    const by = { operatorId: operator.id, name: operator.name, roles: operator.roles };
    try {
      if (sub === 'cancel-nonce') {
        await db.transaction().execute((trx) => requestNonceCancel(trx, id, reason ?? '', now(), by));
        out(`withdrawal ${id}: nonce cancel requested; it fails (funds returned) only once the cancel is mined`);
        return 0;
      }
      // The console's service and rules (four-eyes.ts). The CLI has no price feed: every approval it
      // gives is weighed as unvalued, so it is the first of two unless it is the second (fail closed).
      const review = createWithdrawalReview({ db, now, prices: null });
      if (sub === 'approve') {
        const r = await review.approve(id, by, { firstOnly: true });
        if (r.outcome === 'needs_four_eyes') throw new Error('unreachable: a single approval was not asked for');
        out(
          r.outcome === 'awaiting_second_approval'
            ? `withdrawal ${id}: awaiting_second_approval (${r.because}); another finance operator approves it in the console`
            : `withdrawal ${id}: review_approved`,
        );
        return 0;
      }
      if (sub === 'second-look') {
        await review.secondLook(id, by, reason ?? '');
        out(`withdrawal ${id}: second look requested; two finance approvals needed, not by ${by.name}`);
        return 0;
      }
      await review.reject(id, by, reason ?? '');
      out(`withdrawal ${id}: review_rejected (funds returned to the user)`);
      return 0;
    } catch (err) {
      if (err instanceof AppError) {
        out(`refused: ${err.message}`);
        return 1;
      }
      throw err;
    }
  }
  out(withdrawalsUsage);
  return 2;
}
