/** On #root of a pre-rendered page: the path whose screen it holds (scripts/lib/prerender.ts writes it). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** The landing screens built as HTML at build time, in the default language and the phone layout. */
export const PRERENDERED_PATHS = ['/signIn', '/login'] as const;
