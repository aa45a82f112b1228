/**
 * The features this hub leads to. Their screens arrive in later releases of
 * this remote; until a path is in `routes.ts`, its entry shows "coming soon".
 */
export const HUB_ENTRIES = [
  { key: 'sendemails', path: '/sendemails' },
  { key: 'sendHistory', path: '/sendHistory' },
  { key: 'notice', path: '/notice' },
  { key: 'support', path: '/supportMail' },
  { key: 'chat', path: '/chat' },
  { key: 'leaveMessage', path: '/support' },
] as const;
