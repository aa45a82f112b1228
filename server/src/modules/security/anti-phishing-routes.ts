import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { ValidationError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { appendAudit } from '../audit/repository.ts';
import { clientOf } from '../auth/client.ts';
import {
  ANTI_PHISHING_MAX,
  ANTI_PHISHING_MIN,
  ANTI_PHISHING_PATTERN,
  antiPhishingPhrase,
} from '../mail/anti-phishing.ts';
import { assertRecentAuth } from './reauth.ts';

const Phrase = Type.Union([
  Type.String({
    minLength: ANTI_PHISHING_MIN,
    maxLength: ANTI_PHISHING_MAX,
    pattern: ANTI_PHISHING_PATTERN,
    description: 'Plain text shown at the top of every mail we send you; no < > & " \' or control characters',
  }),
  Type.Null(),
]);
const AntiPhishing = Type.Object({ phrase: Phrase }, { additionalProperties: false });

/** /api/me/security/anti-phishing: the phrase at the top of our mails (issue 31). */
export const antiPhishingRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database>; now: () => Date }> = async (
  app,
  { db, now },
) => {
  app.get(
    '/me/security/anti-phishing',
    {
      preValidation: requireUser,
      schema: {
        tags: ['security'],
        summary: 'The anti-phishing phrase (null when none is set)',
        response: { 200: AntiPhishing, ...errorResponses(401) },
      },
    },
    async (request) => ({ phrase: await antiPhishingPhrase(db, currentUser(request).userId) }),
  );
  app.put(
    '/me/security/anti-phishing',
    {
      preValidation: requireUser,
      schema: {
        tags: ['security'],
        summary: 'Set (or clear, with null) the anti-phishing phrase',
        description: 'REAUTH_REQUIRED unless the password was proved within 5 minutes; VALIDATION_FAILED for markup.',
        body: AntiPhishing,
        response: { 200: AntiPhishing, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      const at = now();
      // A thief's session must not set a phrase to match their own phishing mail.
      await assertRecentAuth(db, client, at);
      const userId = currentUser(request).userId;
      const phrase = request.body.phrase?.trim() || null;
      // The schema measured the phrase before the trim: '  ab  ' passed it and then broke the table's
      // length check (a 500). Measured again as stored (review 31, F9).
      if (phrase !== null && [...phrase].length < ANTI_PHISHING_MIN)
        throw new ValidationError('The phrase is too short', [
          {
            field: 'phrase',
            message: `must have at least ${ANTI_PHISHING_MIN} characters besides spaces`,
            rule: 'minLength',
          },
        ]);
      await db.transaction().execute(async (trx) => {
        if (phrase === null) await trx.deleteFrom('anti_phishing_codes').where('user_id', '=', userId).execute();
        else
          await trx
            .insertInto('anti_phishing_codes')
            .values({ user_id: userId, phrase, updated_at: at })
            .onConflict((oc) => oc.column('user_id').doUpdateSet({ phrase, updated_at: at }))
            .execute();
        await appendAudit(trx, { event: 'anti_phishing_set', at, userId, ip: client.ip });
      });
      return { phrase };
    },
  );
};
