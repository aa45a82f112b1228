import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { withStrictInput } from '../../http/safe-text.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { FileBytes, MultipartFile, Upload, UploadFileQuery, UploadIdParams, UploadQuery } from './schemas.ts';
import type { Reader, UploadsService } from './service.ts';

const strict = withStrictInput(TypeBoxValidatorCompiler);
/**
 * The multipart body is read as a stream by the handler (limits enforced while reading), so the
 * documented body schema is not run against a parsed body; every other part is validated as usual.
 */
export const streamedBody: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => true : strict(route as never);

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Every upload is sent as a download of its checked type: never sniffed, never run, never framed,
 * never shown as a page of this origin (images still display in <img>). Ids never change content.
 */
function sendFile(reply: FastifyReply, file: Awaited<ReturnType<UploadsService['open']>>) {
  return reply
    .header('content-type', file.mediaType)
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'private, max-age=31536000, immutable')
    .send(file.stream);
}

const uploadSchema = (tags: string[], who: string) => ({
  tags,
  summary: `Upload one file (${who}); attach it to a ticket or chat message by its id`,
  description:
    'multipart/form-data with one part named file. The type is sniffed from the bytes and must be allowed ' +
    'for the place; images are re-encoded (EXIF and GPS removed), SVG is sanitised and drawn as PNG. ' +
    'Over the place limit: 413 FILE_TOO_LARGE while reading.',
  consumes: ['multipart/form-data'],
  querystring: UploadQuery,
  body: MultipartFile,
  response: { 201: Upload, ...errorResponses(400, 401, 409, 413, 415) },
});

export const uploadsRoutes: FastifyPluginAsyncTypebox<{
  service: UploadsService;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { service, requireOperator }) => {
  app.post(
    '/uploads',
    { preValidation: requireUser, validatorCompiler: streamedBody, schema: uploadSchema(['uploads'], 'a user') },
    async (request, reply) => {
      const upload = await service.accept(request, { userId: currentUser(request).userId }, request.query.place);
      return reply.code(201).send(upload);
    },
  );

  app.post(
    '/ops/uploads',
    {
      preValidation: requireOperator,
      validatorCompiler: streamedBody,
      schema: { ...uploadSchema(['ops'], 'an operator'), security: operatorSecurity('support') },
    },
    async (request, reply) => {
      const upload = await service.accept(
        request,
        { operatorId: currentOperator(request).operatorId },
        request.query.place,
      );
      return reply.code(201).send(upload);
    },
  );

  // The same file handler for both sides; who may read is decided by the reader.
  const readers = [
    {
      url: '/uploads/:id',
      guard: requireUser,
      security: undefined,
      tags: ['uploads'],
      summary: 'A file of yours, or one sent to you in your ticket or chat (always as an attachment)',
      reader: (request: FastifyRequest): Reader => ({ userId: currentUser(request).userId }),
    },
    {
      url: '/ops/uploads/:id',
      guard: requireOperator,
      security: operatorSecurity('support'),
      tags: ['ops'],
      summary: 'Any upload, for an operator (always as an attachment)',
      reader: (request: FastifyRequest): Reader => ({ operatorId: currentOperator(request).operatorId }),
    },
  ];
  for (const side of readers)
    app.get(
      side.url,
      {
        preValidation: side.guard,
        schema: {
          ...(side.security ? { security: side.security } : {}),
          tags: side.tags,
          summary: side.summary,
          params: UploadIdParams,
          querystring: UploadFileQuery,
          produces: ['application/octet-stream'],
          response: { 200: FileBytes, ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) =>
        sendFile(
          reply,
          await service.open(request.params.id, side.reader(request), request.query.variant ?? 'display'),
        ),
    );
};
