/** Country names in the reader's language, from the browser (Intl.DisplayNames): no list to ship. */
const displayNamesCache = new Map<string, Intl.DisplayNames | null>();

function displayNames(language: string): Intl.DisplayNames | null {
  if (!displayNamesCache.has(language)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
    } catch {
      names = null;
    }
    displayNamesCache.set(language, names);
  }
  return displayNamesCache.get(language) ?? null;
}

/** The country's name in `language` (Intl.DisplayNames; the code itself if unknown). */
export function countryName(code: string, language: string): string {
  return displayNames(language)?.of(code) ?? code;
}
