import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import {
  CoinNetworkQuery,
  ConfirmClickResult,
  Deposit,
  DepositAddress,
  DepositIdParams,
  DepositTxQuery,
} from './schemas.ts';
import type { DepositsService } from './service.ts';

export interface DepositsRoutesOptions {
  service: DepositsService;
}

export const depositsRoutes: FastifyPluginAsyncTypebox<DepositsRoutesOptions> = async (app, { service }) => {
  app.get(
    '/wallet/deposit-address',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: "The user's deposit address for a coin on a network, with the minimum and confirmations",
        querystring: CoinNetworkQuery,
        response: { 200: DepositAddress, ...errorResponses(400, 401, 409, 503) },
      },
    },
    async (request) => service.address(currentUser(request).userId, request.query.coin, request.query.network),
  );

  app.get(
    '/wallet/deposits/by-transaction',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Your deposit paid by a transaction (sent from a connected wallet): 404 until the watcher sees it',
        querystring: DepositTxQuery,
        response: { 200: Deposit, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.byTransaction(currentUser(request).userId, request.query.network, request.query.txHash),
  );

  app.get(
    '/wallet/deposits/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'One deposit of the user: transaction, confirmations current/required, state and reason',
        params: DepositIdParams,
        response: { 200: Deposit, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(currentUser(request).userId, request.params.id),
  );

  app.post(
    '/wallet/deposits/confirm-click',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: '"I have transferred": matched against recent deposits; 3 unmatched per UTC day, then refused',
        body: CoinNetworkQuery,
        response: { 200: ConfirmClickResult, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => service.confirmClick(currentUser(request).userId, request.body.coin, request.body.network),
  );
};
