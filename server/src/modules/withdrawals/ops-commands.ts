import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { findOperatorByName } from '../operators/repository.ts';
import { requestNonceCancel } from './nonce-cancel.ts';
import { listByState } from './repository.ts';
import { approveWithdrawal, rejectWithdrawal } from './service.ts';
import { type WithdrawalState, withdrawalStates } from './state-machine.ts';

/**
 * `npm run ops -- withdrawals list [--state <state>]`, `... approve <id> --operator <name>`,
 * `... reject <id> --operator <name> --reason "..."`, `... cancel-nonce <id> --operator <name> --reason "..."`
 * (a transfer in progress whose nonce is dead: the signer replaces it by a zero-value self-transfer and
 * the withdrawal fails, funds back, only once that is mined; nonce-cancel.ts). The operator (an enabled one) is who decided: it is
 * recorded on the withdrawal and in the audit log.
 * Returns the exit code: 0 done, 1 refused (not in review, unknown id), 2 usage.
 */
export const withdrawalsUsage =
  'usage: npm run ops -- withdrawals list [--state <state>] | approve <id> --operator <name> | reject <id> --operator <name> --reason "<text>" | cancel-nonce <id> --operator <name> --reason "<text>"';

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
    const state = option(args, '--state') ?? 'in_review';
    if (!(withdrawalStates as readonly string[]).includes(state)) {
      out(`unknown state ${state}; one of ${withdrawalStates.join(', ')}`);
      return 2;
    }
    const rows = await listByState(db, [state as WithdrawalState], LIST_LIMIT);
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
    out(`${rows.length} withdrawal(s) ${state}${rows.length === LIST_LIMIT ? ` (first ${LIST_LIMIT})` : ''}`);
    return 0;
  }
  if ((sub === 'approve' || sub === 'reject' || sub === 'cancel-nonce') && id && uuid.test(id)) {
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
    const by = { operatorId: operator.id, name: operator.name };
    try {
      if (sub === 'cancel-nonce') {
        await db.transaction().execute((trx) => requestNonceCancel(trx, id, reason ?? '', now(), by));
        out(`withdrawal ${id}: nonce cancel requested; it fails (funds returned) only once the cancel is mined`);
        return 0;
      }
      const row = await db
        .transaction()
        .execute((trx) =>
          sub === 'approve'
            ? approveWithdrawal(trx, id, now(), by)
            : rejectWithdrawal(trx, id, reason ?? '', now(), by),
        );
      out(`withdrawal ${row.id}: ${row.state}${sub === 'reject' ? ' (funds returned to the user)' : ''}`);
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
