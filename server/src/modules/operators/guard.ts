import type { FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../../errors/app-error.ts';
import type { OperatorsService, SignedInOperator } from './service.ts';

const operators = new WeakMap<FastifyRequest, SignedInOperator>();

/** Marks the hook, so the OpenAPI document can tell an operator route (http/openapi.ts). */
export const OPERATOR_GUARD = Symbol('operator guard');

/**
 * `preValidation` hook of every /api/ops route: the request's operator session (the `ops_sid`
 * cookie), or 401. A user's session is never looked at, so a signed-in user gets 401 here.
 */
export function operatorGuard(service: OperatorsService) {
  const requireOperator = async (request: FastifyRequest): Promise<void> => {
    const operator = await service.resolve(request);
    if (!operator) throw new UnauthenticatedError('An operator session is needed');
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
