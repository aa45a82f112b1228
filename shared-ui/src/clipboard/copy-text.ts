import { translateUi } from '../i18n/index.ts';
import { type AlertType, toast } from '../toast/index.ts';

function copyWithTextarea(text: string): boolean {
  const textarea = document.createElement('textarea');
  textarea.value = text;
  textarea.setAttribute('readonly', '');
  textarea.style.position = 'fixed';
  textarea.style.top = '0';
  textarea.style.opacity = '0';
  document.body.append(textarea);
  textarea.select();
  textarea.setSelectionRange(0, text.length);
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    textarea.remove();
  }
}

/** Copy without any notice: the async Clipboard API, else a hidden textarea. */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed (insecure context, no permission): fall back below.
  }
  return copyWithTextarea(text);
}

/**
 * Copy text, then show the translated "copied successfully" message
 * (alertType 1 rounded, 2 plain), or a "copy failed" one. Resolves whether it worked.
 */
export async function copyText(text: string, options: { alertType?: AlertType } = {}): Promise<boolean> {
  const copied = await writeClipboard(text);
  const message = await translateUi(copied ? 'toast.copied' : 'toast.copyFailed');
  if (copied) toast.text(message, { alertType: options.alertType ?? 1 });
  else toast.fail(message, { alertType: options.alertType ?? 1 });
  return copied;
}
