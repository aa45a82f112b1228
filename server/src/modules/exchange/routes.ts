import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import {
  CreateOrderRequest,
  type ExchangeOrder,
  ExchangePairs,
  type ExchangeRate,
  OrderList,
  OrderListQuery,
  OrderParams,
  RateRequest,
} from './schemas.ts';
import type { ExchangeService } from './service.ts';

export interface ExchangeRoutesOptions {
  service: ExchangeService;
}

const OrderRef = Type.Unsafe<ExchangeOrder>(Type.Ref('ExchangeOrder'));
const RateRef = Type.Unsafe<ExchangeRate>(Type.Ref('ExchangeRate'));

export const exchangeRoutes: FastifyPluginAsyncTypebox<ExchangeRoutesOptions> = async (app, { service }) => {
  app.get(
    '/exchange/pairs',
    {
      schema: {
        tags: ['exchange'],
        summary: 'The coins and networks an exchange order can be paid in and paid out to, right now',
        response: { 200: ExchangePairs, ...errorResponses() },
      },
    },
    async () => service.pairs(),
  );

  app.post(
    '/exchange/rates',
    {
      preValidation: requireUser,
      schema: {
        tags: ['exchange'],
        summary: 'A float estimate, or a fixed rate locked for 20 minutes under a rate id',
        body: RateRequest,
        response: { 200: RateRef, ...errorResponses(400, 401, 503) },
      },
    },
    async (request) => service.rate(currentUser(request).userId, request.body),
  );

  app.post(
    '/exchange/orders',
    {
      preValidation: requireUser,
      schema: {
        tags: ['exchange'],
        summary: 'Create an exchange order; it gets its own deposit address',
        body: CreateOrderRequest,
        response: { 200: OrderRef, ...errorResponses(400, 401, 409, 503) },
      },
    },
    async (request) => service.createOrder(currentUser(request).userId, request.body),
  );

  app.get(
    '/exchange/orders',
    {
      preValidation: requireUser,
      schema: {
        tags: ['exchange'],
        summary: "The signed-in user's exchange orders, newest first",
        querystring: OrderListQuery,
        response: { 200: OrderList, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.listOrders(currentUser(request).userId, request.query),
  );

  app.get(
    '/exchange/orders/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['exchange'],
        summary: 'One exchange order with every field of its record',
        params: OrderParams,
        response: { 200: OrderRef, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.getOrder(currentUser(request).userId, request.params.id),
  );
};
