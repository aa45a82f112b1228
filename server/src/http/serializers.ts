import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { ConfigError } from '../config.ts';

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
 *
 * main.ts reads SERIALIZER_MODE (unset: `at-start`): the test runs set `on-first-use` for the servers
 * they start as processes (the drills' instances, main.test.ts; vitest.config.ts), which call a few
 * routes each, and the e2e server (playwright.config.ts). Production and npm start keep `at-start`.
 */
export type SerializerMode = 'at-start' | 'on-first-use';

let defaultMode: SerializerMode = 'at-start';

/** The mode of apps built from now on in this process (tests only; production keeps `at-start`). */
export function setDefaultSerializerMode(mode: SerializerMode): void {
  defaultMode = mode;
}

/** SERIALIZER_MODE, for main.ts: unset is `at-start`. */
export function serializerModeFromEnv(env: NodeJS.ProcessEnv): SerializerMode {
  const mode = env.SERIALIZER_MODE?.trim() || 'at-start';
  if (mode !== 'at-start' && mode !== 'on-first-use') {
    throw new ConfigError([`SERIALIZER_MODE must be at-start or on-first-use (got "${mode}")`]);
  }
  return mode;
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
