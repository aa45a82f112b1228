import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { clientOf } from '../auth/client.ts';
import type { createOrderService } from './orders.ts';
import type { createQuoteService } from './quotes.ts';
import {
  OrderList,
  OrderParams,
  OrdersQuery,
  PlaceOrder,
  QuoteRequest,
  RampOptions,
  RampOrder,
  RampQuote,
  SellDeposit,
} from './schemas.ts';
import type { createWebhookHandler } from './webhooks.ts';

export interface RampRouteDeps {
  options: (userId: string) => Promise<RampOptions>;
  quotes: ReturnType<typeof createQuoteService>;
  orders: ReturnType<typeof createOrderService>;
  webhook: ReturnType<typeof createWebhookHandler>;
}

/** Largest webhook body read (MoonPay's are a few KB). */
const WEBHOOK_BODY_BYTES_MAX = 64 * 1024;

const caller = async (request: FastifyRequest) => ({
  userId: currentUser(request).userId,
  // The host is the one the browser used (cross-site POSTs are refused by the CSRF guard).
  origin: `${request.protocol}://${request.host}`,
  client: await clientOf(request),
});

/** Buy and sell through the payment provider (MoonPay, or the embedded sandbox speaking its API). */
export const rampRoutes: FastifyPluginAsyncTypebox<RampRouteDeps> = async (app, deps) => {
  const tags = ['ramp'];
  app.get(
    '/ramp/options',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Whether you may buy and sell here, in which fiat, coins and methods',
        response: { 200: RampOptions, ...errorResponses(401) },
      },
    },
    async (request) => deps.options(currentUser(request).userId),
  );
  app.post(
    '/ramp/quotes',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'A provider quote with its expiry (buy: fiat amount, fees included; sell: coin amount)',
        body: QuoteRequest,
        response: { 200: RampQuote, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => deps.quotes.quote(currentUser(request).userId, request.body),
  );
  app.post(
    '/ramp/orders',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary:
          'Place a buy or sell from an unexpired quote; a sell takes the fund password and a withdraw e-mail code. Answers the signed checkout URL',
        body: PlaceOrder,
        response: { 200: RampOrder, ...errorResponses(400, 401, 403, 404, 409, 423, 429, 503) },
      },
    },
    async (request) => deps.orders.place(await caller(request), request.body),
  );
  app.get(
    '/ramp/orders',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Your buys and sells, newest first; from/to (dates) may not be reversed',
        querystring: OrdersQuery,
        response: { 200: OrderList, ...errorResponses(400, 401) },
      },
    },
    async (request) => deps.orders.list(await caller(request), request.query),
  );
  app.get(
    '/ramp/orders/:id',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "One buy or sell with its status timeline (a pending sell's checkout link is not answered again)",
        params: OrderParams,
        response: { 200: RampOrder, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => deps.orders.get(await caller(request), request.params.id),
  );
  app.post(
    '/ramp/orders/:id/cancel',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary:
          'Cancel your sell still waiting for its checkout (its checkout link is answered only once, when placed): expired, coins unlocked',
        params: OrderParams,
        response: { 200: RampOrder, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => deps.orders.cancel(await caller(request), request.params.id),
  );
  app.post(
    '/ramp/orders/:id/sell-deposit',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "Back from the provider's sell checkout: its transaction is read from the provider and the coins sent",
        params: OrderParams,
        body: SellDeposit,
        response: { 200: RampOrder, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async (request) => deps.orders.sellDeposit(await caller(request), request.params.id, request.body.transactionId),
  );

  // The webhook's signature covers the raw bytes: this scope reads JSON bodies as text.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_BYTES_MAX },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/ramp/webhooks/moonpay',
      {
        schema: {
          tags,
          summary: 'MoonPay webhook (Moonpay-Signature-V2); each event has one effect however often it comes',
          response: { 200: Type.Object({ outcome: Type.String() }), ...errorResponses(400, 401, 503) },
        },
      },
      async (request) => {
        const signature = request.headers['moonpay-signature-v2'];
        const raw = typeof request.body === 'string' ? request.body : '';
        return { outcome: await deps.webhook(typeof signature === 'string' ? signature : undefined, raw) };
      },
    );
  });
};
