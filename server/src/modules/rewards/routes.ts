import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { LangQuery } from '../notices/schemas.ts';
import {
  Claim,
  ClaimBody,
  ClientSeedBody,
  ClientSeedChange,
  DayParams,
  Delivery,
  Draw,
  InviteStatus,
  LikesStatus,
  LotteryDay,
  PostParams,
  SignStatus,
} from './schemas.ts';
import type { RewardsService } from './service.ts';

/** Rewards: daily check-in with claims and delivery, the likes lottery, invitations (all signed in). */
export const rewardsRoutes: FastifyPluginAsyncTypebox<{ service: RewardsService }> = async (app, { service }) => {
  const tags = ['rewards'];
  app.get(
    '/rewards/sign',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Check-in status: member tag, contracts, streak, claimable rewards, records and claims',
        response: { 200: SignStatus, ...errorResponses(401) },
      },
    },
    async (request) => service.signStatus(currentUser(request).userId),
  );
  app.post(
    '/rewards/claims',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary:
          'Claim the rewards of check-ins at least 24 hours old, naming one of your confirmed check-ins (its wallet is the claim address)',
        body: ClaimBody,
        response: { 201: Claim, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.claim(currentUser(request).userId, request.body.signRecordId)),
  );
  app.post(
    '/rewards/deliveries',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Move claimed rewards to the available balance (needs a 7-day check-in streak)',
        response: { 201: Delivery, ...errorResponses(401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.deliver(currentUser(request).userId)),
  );
  app.get(
    '/rewards/likes',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "Likes lottery: today's posts, likes, draws earned and used, the seed commitment",
        querystring: LangQuery,
        response: { 200: LikesStatus, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.likesStatus(currentUser(request).userId, request.query.lang ?? 'zh-CN'),
  );
  app.put(
    '/rewards/likes/:id',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Like a post (once; liking again changes nothing)',
        params: PostParams,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.like(currentUser(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/rewards/draws',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Make a draw (prize paid from the rewards pool; nothing booked when it fails)',
        response: { 201: Draw, ...errorResponses(401, 409, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.draw(currentUser(request).userId)),
  );
  app.put(
    '/rewards/lottery/client-seed',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary:
          'Set your client seed, pairing it with the next server seed you were shown (its commitment) and the prize table you were shown (its hash); the active seed is revealed',
        body: ClientSeedBody,
        response: { 200: ClientSeedChange, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => service.setClientSeed(currentUser(request).userId, request.body),
  );
  app.get(
    '/rewards/lottery/:day',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Your draws of a day, each with its inputs (its server seed once revealed): verify them yourself',
        params: DayParams,
        response: { 200: LotteryDay, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.lotteryDay(currentUser(request).userId, request.params.day),
  );
  app.get(
    '/rewards/invite',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Your invite code and the people who registered with it',
        response: { 200: InviteStatus, ...errorResponses(401) },
      },
    },
    async (request) => service.inviteStatus(currentUser(request).userId),
  );
};
