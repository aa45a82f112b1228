import type { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthenticatedError } from '../../errors/app-error.ts';
import { declaredRoles } from './roles.ts';
import type { OperatorsService, SignedInOperator } from './service.ts';

const operators = new WeakMap<FastifyRequest, SignedInOperator>();

/** Marks the hook, so the OpenAPI document can tell an operator route (http/openapi.ts). */
export const OPERATOR_GUARD = Symbol('operator guard');

/**
 * `preValidation` hook of every /api/ops route: the request's operator session (the `ops_sid`
 * cookie), or 401; then one of the roles the route's schema declares (its `security`, roles.ts), or
 * 403. A user's session is never looked at, so a signed-in user gets 401 here. The roles are read from
 * the operator row on every request (service.resolve): a role taken away, or the operator disabled,
 * counts from the next request, not the next sign-in. A route that declares no role is refused to
 * everyone (and refused at start-up by http/openapi.ts).
 */
export function operatorGuard(service: OperatorsService) {
  const requireOperator = async (request: FastifyRequest): Promise<void> => {
    const operator = await service.resolve(request);
    if (!operator) throw new UnauthenticatedError('An operator session is needed');
    const needed = declaredRoles(request.routeOptions.schema?.security);
    if (!operator.roles.some((role) => needed.includes(role)))
      throw new ForbiddenError(`This needs one of the roles: ${needed.join(', ') || 'none declared'}`);
    operators.set(request, operator);
  };
  return Object.assign(requireOperator, { [OPERATOR_GUARD]: true });
}

/** The operator `requireOperator` found; use in handlers of routes that have the guard. */
export function currentOperator(request: FastifyRequest): SignedInOperator {
  const operator = operators.get(request);
  if (!operator) throw new UnauthenticatedError('An operator session is needed');
  return operator;
}
