/** The hub screen of each remote, in tab order; the tab bar shows only on these paths. */
export const TAB_PATHS = ['/coinTopup', '/convert', '/rewards', '/mail', '/settings'] as const;

export function isTabPath(pathname: string): boolean {
  return (TAB_PATHS as readonly string[]).includes(pathname);
}
