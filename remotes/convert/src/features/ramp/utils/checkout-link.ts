/**
 * A sell's signed checkout link, as the POST that placed it answered it: the server answers it only
 * once (a stolen session must not read it back from GET /ramp/orders, issue 38), so this tab keeps it
 * to continue after a reload or a return from the provider. sessionStorage: this tab only, gone with
 * it; never sent anywhere. A tab without it offers "cancel and sell again".
 */
const PREFIX = 'cw.ramp.checkout.';
/** Longer than any signed widget URL the server builds; a bound on what is kept. */
const URL_LENGTH_MAX = 4096;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: the order screen offers cancelling instead
  }
}

export const checkoutLinks = {
  remember(orderId: string, url: string): void {
    if (url.length > URL_LENGTH_MAX || !/^https?:\/\//.test(url)) return;
    try {
      storage()?.setItem(PREFIX + orderId, url);
    } catch {
      // Quota or private mode: the order screen offers cancelling instead.
    }
  },
  recall(orderId: string): string | null {
    return storage()?.getItem(PREFIX + orderId) ?? null;
  },
  forget(orderId: string): void {
    storage()?.removeItem(PREFIX + orderId);
  },
};
