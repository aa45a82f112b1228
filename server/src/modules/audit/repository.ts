import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Security events written to the append-only `audit_events` table. */
export const auditEvents = [
  'registered',
  'login_succeeded',
  'login_failed',
  'login_throttled',
  'logout',
  'password_changed',
  'password_reset',
  'fund_password_set',
  'fund_password_changed',
  'fund_password_verified',
  'fund_password_failed',
  'fund_password_locked',
  'code_sent',
  'code_failed',
  'session_revoked',
  'sessions_revoked',
  // Second factors, re-authentication and freeze (modules/security).
  'login_factor_pending',
  'factor_failed',
  'totp_enrolment_started',
  'totp_enabled',
  'totp_disabled',
  'recovery_codes_generated',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'passkey_counter_regressed',
  'reauthenticated',
  'account_frozen',
  'unfreeze_requested',
  'payment_method_added',
  'payment_method_activated',
  'payment_method_deactivated',
  // Withdrawal allowlist (modules/allowlist).
  'allowlist_enabled',
  'allowlist_off_requested',
  'allowlist_entry_trusted',
  'allowlist_entry_untrusted',
  'anti_phishing_set',
  // New-device confirmation (security/new-device.ts): a sign-in from an unknown browser waits for the
  // e-mail; its confirmation starts the outflow hold (withdrawals/outflow-holds.ts).
  'login_device_pending',
  'new_device_confirmed',
  // The account's e-mail address changed (security/email-change.ts): starts the outflow hold.
  'email_changed',
  // Operators (user_id null, or the user the act concerns; details.operator names the operator).
  'operator_signed_in',
  'operator_sign_in_failed',
  // Operators' passkeys (operators/passkeys-service.ts, passkey-sign-in.ts).
  'operator_passkey_added',
  'operator_passkey_removed',
  'operator_passkey_counter_regressed',
  // Finance asked for a money check now (dashboard/routes.ts).
  'money_check_requested',
  'operator_password_set',
  'operator_added',
  'operator_enrolment_issued',
  'operator_enrolled',
  'operator_roles_changed',
  'operator_disabled',
  'operator_sessions_ended',
  'user_sessions_ended_by_operator',
  // User lookup and actions (modules/ops-users): every lookup, every reveal (field and reason), every action.
  'ops_user_lookup',
  'ops_user_viewed',
  // Compliance paged a user's ledger (ops-users/routes.ts); an operator searched the audit log (audit/ops-routes.ts).
  'ops_user_ledger_viewed',
  'ops_audit_searched',
  'ops_user_field_revealed',
  'ops_user_frozen',
  'ops_user_unfrozen',
  'ops_user_withdrawal_hold_put',
  'ops_user_withdrawal_hold_removed',
  'announcement_withdrawn',
  'withdrawal_approved',
  'withdrawal_rejected',
  // Four eyes (withdrawals/four-eyes.ts): a first of two approvals, and a second look asked for.
  'withdrawal_first_approval',
  'withdrawal_second_look_requested',
  // A review decision refused (withdrawals/refused-decisions.ts): the same operator twice, a role, a state.
  'withdrawal_decision_refused',
  'withdrawal_nonce_cancel_requested',
] as const;

export type AuditEvent = (typeof auditEvents)[number];

export interface AuditEntry {
  event: AuditEvent;
  at: Date;
  userId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Appends one event. Pass the transaction of the change it records, so both commit or neither. */
export async function appendAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      occurred_at: entry.at,
      event: entry.event,
      user_id: entry.userId ?? null,
      ip: entry.ip ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

export interface AuditRow {
  id: string;
  event: string;
  userId: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  occurredAt: Date;
}

/** Events, oldest first (for tests and support tooling). */
export async function listAudit(db: Kysely<Database>, filter: { userId?: string } = {}): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_events').selectAll().orderBy('id');
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    userId: r.user_id,
    ip: r.ip,
    details: r.details,
    occurredAt: r.occurred_at,
  }));
}
