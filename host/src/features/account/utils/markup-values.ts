/**
 * What a visitor typed into a pre-rendered landing page (scripts/lib/prerender.ts) that the app then
 * renders afresh instead of hydrating (another language than the markup's: boot.ts). The fresh render
 * replaces the fields, so their text is kept here first, by field id, and a form takes it over
 * (use-form.ts) as it does a hydrated field's text. Read once: a later screen starts empty.
 */
const kept = new Map<string, string>();
/** At most this many fields, this long: the landing forms have four. */
const MAX_FIELDS = 16;
const MAX_LENGTH = 512;

export function keepMarkupValues(container: ParentNode): void {
  for (const field of Array.from(container.querySelectorAll('input[id]')).slice(0, MAX_FIELDS)) {
    if (field instanceof HTMLInputElement && field.value !== '' && field.value.length <= MAX_LENGTH) {
      kept.set(field.id, field.value);
    }
  }
}

export function takeMarkupValue(id: string): string | undefined {
  const value = kept.get(id);
  kept.delete(id);
  return value;
}
