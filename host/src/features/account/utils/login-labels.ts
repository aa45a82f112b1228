/** Labels of a sign-in's parsed device and approximate place (login history, overview, sessions). */
export interface DeviceParts {
  browser: string | null;
  os: string | null;
  platform: string | null;
}
export interface PlaceParts {
  country: string | null;
  region: string | null;
  city: string | null;
}

/** "Chrome 131 · Windows 10", or null when the User-Agent named neither. */
export function deviceText(device: DeviceParts): string | null {
  const parts = [device.browser, device.os].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** "Berlin, Germany" in the UI language (country from its ISO code), or null when unknown. */
export function placeText(place: PlaceParts, language: string): string | null {
  let country = place.country;
  if (country) {
    try {
      country = new Intl.DisplayNames([language], { type: 'region' }).of(country) ?? country;
    } catch {
      // An unknown code: shown as it came.
    }
  }
  const parts = [place.city, place.region, country].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}
