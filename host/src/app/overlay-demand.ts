/**
 * The shared toast and dialog hosts serve the remotes (the host's own screens use antd-mobile's
 * Toast, loaded on first use). They load with the federation runtime, when a remote is first
 * visited, so the landing page carries neither.
 */
let wanted = false;
const listeners = new Set<() => void>();

export function wantOverlays(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export function overlaysWanted(): boolean {
  return wanted;
}

export function subscribeOverlays(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
