import { maskEmail, maskIp } from '../ops-users/masking.ts';

/**
 * The audit search answer (ops-routes.ts /ops/audit/events) shows no personal data in full (review s7,
 * finding 2): admins have no business with it, and compliance gets a full value only through the
 * audited, reasoned reveal (ops-users/reveal.ts). IPs keep their network part; any string value in
 * `details` that is an e-mail address or an IP address is masked the same way, at any depth, so an
 * event added later with such a field is covered without being listed here.
 */
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const IPV6 = /^[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}$/i;
/** Limits the walk: audit details are small, flat objects; anything deeper is cut. */
const MAX_DEPTH = 6;

function maskValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (EMAIL.test(value)) return maskEmail(value);
    if (IPV4.test(value) || IPV6.test(value)) return maskIp(value);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '***';
  if (Array.isArray(value)) return value.map((v) => maskValue(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v, depth + 1)]));
}

export function maskAuditDetails(details: Record<string, unknown>): Record<string, unknown> {
  return maskValue(details, 0) as Record<string, unknown>;
}

export function maskAuditRow<T extends { ip: string | null; details: Record<string, unknown> }>(row: T): T {
  return { ...row, ip: maskIp(row.ip), details: maskAuditDetails(row.details) };
}
