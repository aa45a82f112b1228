/**
 * Operators' roles (issue 32). Each /api/ops route declares the roles that may call it in its schema's
 * `security`, as the role list of the operator cookie schemes:
 *
 *   security: [{ operatorCookie: ['finance'] }, { secureOperatorCookie: ['finance'] }]
 *
 * OpenAPI 3.1 (4.8.30) lets a non-OAuth requirement carry "a list of role names which are required for
 * the execution" in exactly that array, so the document shows the roles in the standard place (no
 * vendor extension a generator would ignore). The one guard (guard.ts) reads the list back from the
 * route's schema: what the document says is what is enforced. An operator needs any one of the roles.
 */
export const OPERATOR_ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const OPERATOR_SCHEME = 'operatorCookie';
export const SECURE_OPERATOR_SCHEME = 'secureOperatorCookie';

/** The `security` of an /api/ops route open to operators holding any of `roles`. */
export function operatorSecurity(...roles: [OperatorRole, ...OperatorRole[]]): Record<string, OperatorRole[]>[] {
  return [{ [OPERATOR_SCHEME]: roles }, { [SECURE_OPERATOR_SCHEME]: roles }];
}

/** Routes any signed-in operator uses (sign-out, who am I): every role listed. */
export const ANY_OPERATOR = operatorSecurity(...OPERATOR_ROLES);

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** The roles a route's `security` names for the operator schemes; empty when none (fail closed). */
export function declaredRoles(security: unknown): OperatorRole[] {
  if (!Array.isArray(security)) return [];
  const roles = new Set<OperatorRole>();
  for (const requirement of security) {
    if (typeof requirement !== 'object' || requirement === null) continue;
    for (const scheme of [OPERATOR_SCHEME, SECURE_OPERATOR_SCHEME]) {
      const listed = (requirement as Record<string, unknown>)[scheme];
      if (Array.isArray(listed)) for (const role of listed) if (isOperatorRole(role)) roles.add(role);
    }
  }
  return [...roles];
}

/**
 * Separation of duties: whoever manages operator accounts cannot approve money (an admin holding
 * finance could mint a second approver). Also a database check (migration 0084).
 */
export function rolesProblem(roles: readonly OperatorRole[]): string | null {
  if (roles.length === 0) return 'an operator needs at least one role';
  if (roles.includes('admin') && roles.includes('finance')) return 'admin and finance cannot be held together';
  return null;
}
