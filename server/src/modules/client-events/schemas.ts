import { type Static, Type } from 'typebox';

/** Reports in one request: a page load registers a handful of remotes, a retry a few more. */
export const EVENTS_MAX = 20;
/** Bytes of one request's body (20 events of short fields fit in well under this). */
export const BODY_LIMIT_BYTES = 4_096;

export const RemoteName = Type.String({ pattern: '^[a-z][a-z0-9-]{0,39}$' });
export const RemoteVersion = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]{0,79}$' });
/**
 * The federation runtime's error codes (`RUNTIME-001`..., `@module-federation/error-codes`) and the
 * host's own: INTEGRITY (the browser refused bytes whose digest differs), CONTRACT (the remote loaded
 * but its ./routes is not a routes module), SCREEN (./routes loaded but a screen's chunk failed to load or
 * the screen threw while rendering: host/src/federation/remote-screens.tsx), UNKNOWN. A closed set keeps
 * the aggregate small.
 */
export const LoadErrorCode = Type.String({ pattern: '^(RUNTIME-0[0-9]{2}|INTEGRITY|CONTRACT|SCREEN|UNKNOWN)$' });

export const ClientEvent = Type.Object(
  {
    remote: RemoteName,
    version: RemoteVersion,
    kind: Type.Union([Type.Literal('load'), Type.Literal('failure')]),
    code: Type.Optional(LoadErrorCode),
  },
  { additionalProperties: false },
);
export type ClientEvent = Static<typeof ClientEvent>;

export const ClientEventsBody = Type.Object(
  { events: Type.Array(ClientEvent, { minItems: 1, maxItems: EVENTS_MAX }) },
  { additionalProperties: false },
);
export type ClientEventsBody = Static<typeof ClientEventsBody>;
