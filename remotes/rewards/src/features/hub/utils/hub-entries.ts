/**
 * The features this hub leads to. Their screens arrive in later releases of
 * this remote; until a path is in `routes.ts`, its entry shows "coming soon".
 */
export const HUB_ENTRIES = [
  { key: 'sign', path: '/sign' },
  { key: 'likes', path: '/likes' },
  { key: 'invite', path: '/invite' },
] as const;
