import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { NoContent } from '../auth/schemas.ts';
import {
  ADDRESS_BOOK_LIMIT,
  AddressBookEntry,
  AddressBookInput,
  AddressBookList,
  AddressBookQuery,
  EntryParams,
} from './schemas.ts';
import type { AddressBookService } from './service.ts';

export const addressBookRoutes: FastifyPluginAsyncTypebox<{ service: AddressBookService }> = async (
  app,
  { service },
) => {
  const tags = ['wallet'];
  app.get(
    '/wallet/address-book',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "The signed-in user's saved addresses, newest first (optionally of one network)",
        querystring: AddressBookQuery,
        response: { 200: AddressBookList, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      entries: await service.list(currentUser(request).userId, request.query.network),
      limit: ADDRESS_BOOK_LIMIT,
    }),
  );
  app.post(
    '/wallet/address-book',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Save an address (validated for its network; ADDRESS_BOOK_FULL past the limit)',
        body: AddressBookInput,
        response: { 201: AddressBookEntry, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(currentUser(request).userId, request.body)),
  );
  app.put(
    '/wallet/address-book/:id',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Replace a saved address',
        params: EntryParams,
        body: AddressBookInput,
        response: { 200: AddressBookEntry, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.update(currentUser(request).userId, request.params.id, request.body),
  );
  app.delete(
    '/wallet/address-book/:id',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Delete a saved address',
        params: EntryParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(currentUser(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
