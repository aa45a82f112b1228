/** Where a fresh login (or a logged-in user opening the landing page) lands when no page asked for it. */
export const AFTER_LOGIN_PATH = '/coinTopup';
