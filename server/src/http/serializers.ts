import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * When Fastify builds the response serializers (fast-json-stringify, one per route and status code).
 *
 * - `at-start` (the default, what `main.ts` runs): every serializer is built in `app.ready()`, so a
 *   response schema that cannot be compiled stops the process at start, never a request.
 * - `on-first-use`: a serializer is built the first time its route answers with that status. Building
 *   all of them is most of `app.ready()` (about 9 of 10 s on a loaded two-core machine, 1,500-odd
 *   serializers), while a server test file builds an app per `describe` and calls a handful of
 *   routes; the server tests' setup file (test/setup.ts) switches to this mode.
 *   `serializers.test.ts` still builds every serializer at start, so a broken schema fails the suite.
 *
 * The output is the same in both modes: the same compiler, schema and options.
 */
export type SerializerMode = 'at-start' | 'on-first-use';

let defaultMode: SerializerMode = 'at-start';

/** The mode of apps built from now on in this process (tests only; production keeps `at-start`). */
export function setDefaultSerializerMode(mode: SerializerMode): void {
  defaultMode = mode;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's `schemaController.compilersFactory.buildSerializer` for the current default mode. */
export function serializerFactory(mode: SerializerMode = defaultMode): SerializerFactory {
  const build = SerializerSelector();
  if (mode === 'at-start') return build;
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc: unknown) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}
