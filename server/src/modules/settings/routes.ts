import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { type StoredUserSettings, UserSettingsInput } from './schemas.ts';
import type { SettingsService } from './service.ts';

const settingsRef = Type.Unsafe<StoredUserSettings>(Type.Ref('UserSettings'));

export interface SettingsRoutesOptions {
  service: SettingsService;
}

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRoutesOptions> = async (app, { service }) => {
  app.get(
    '/me/settings',
    {
      preValidation: requireUser,
      schema: {
        tags: ['settings'],
        summary: "The signed-in user's settings (defaults when never saved)",
        response: { 200: settingsRef, ...errorResponses(401) },
      },
    },
    async (request) => service.get(currentUser(request).userId),
  );

  app.put(
    '/me/settings',
    {
      preValidation: requireUser,
      schema: {
        tags: ['settings'],
        summary: "Replace the signed-in user's settings",
        body: UserSettingsInput,
        response: { 200: settingsRef, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.replace(currentUser(request).userId, request.body),
  );
};
