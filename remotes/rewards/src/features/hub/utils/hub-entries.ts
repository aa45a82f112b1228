/** The features this hub leads to, each a screen in `routes.ts`. */
export const HUB_ENTRIES = [
  { key: 'sign', path: '/sign' },
  { key: 'likes', path: '/likes' },
  { key: 'invite', path: '/invite' },
] as const;
