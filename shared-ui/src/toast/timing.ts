/** A queued message becomes visible about this long after it was queued. */
export const TOAST_SHOW_DELAY_MS = 100;
/** A visible message hides after this long (loading messages stay until closed). */
export const TOAST_HIDE_AFTER_MS = 3000;
/** The list empties this long after its last message hid (room for the fade-out). */
export const TOAST_CLEAR_AFTER_MS = 500;
/** antd-mobile's own Toast duration, kept for the single-toast helper. */
export const SINGLE_TOAST_DURATION_MS = 2000;
