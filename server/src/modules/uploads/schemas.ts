import { type Static, Type } from 'typebox';
import { UPLOAD_PLACES } from './places.ts';

export const UploadPlaceSchema = Type.Union(
  UPLOAD_PLACES.map((p) => Type.Literal(p)),
  { description: 'Where the file will be attached: it decides the allowed types and the size limit' },
);

export const UploadQuery = Type.Object({ place: UploadPlaceSchema }, { additionalProperties: false });

export const UploadIdParams = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_-]{22}$', examples: ['Hq3oE0pXq8zv1Yc2b4L9xA'] }) },
  { additionalProperties: false },
);

export const UploadFileQuery = Type.Object(
  {
    variant: Type.Optional(
      Type.Union([Type.Literal('display'), Type.Literal('original')], {
        description: 'display (default): the re-encoded image or an SVG drawn as PNG; original: the file as kept',
      }),
    ),
  },
  { additionalProperties: false },
);

/** An upload as its owner and the thread see it. */
export const Upload = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([Type.Literal('image'), Type.Literal('file')]),
    mediaType: Type.String({ description: 'The type sniffed from the bytes' }),
    name: Type.String(),
    sizeBytes: Type.String({ pattern: '^[0-9]+$' }),
    width: Type.Union([Type.Integer(), Type.Null()]),
    height: Type.Union([Type.Integer(), Type.Null()]),
    /** Path to read it (the user app; operators read through /api/ops/uploads). */
    url: Type.String(),
  },
  { additionalProperties: false },
);
export type Upload = Static<typeof Upload>;

export const MultipartFile = Type.Object(
  { file: Type.String({ format: 'binary', description: 'One file' }) },
  { additionalProperties: false },
);

/** The bytes of a file (streamed; always `Content-Disposition: attachment`). */
export const FileBytes = Type.String({ format: 'binary', description: 'The file, as an attachment' });
