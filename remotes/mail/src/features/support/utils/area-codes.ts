import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

export interface AreaCode {
  country: CountryCode;
  /** "+86" */
  code: string;
  name: string;
}

/** Every country libphonenumber knows, with its calling code and its name in `language`, sorted by name. */
export function areaCodes(language: string): AreaCode[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    names = null;
  }
  return getCountries()
    .map((country) => ({
      country,
      code: `+${getCountryCallingCode(country)}`,
      name: names?.of(country) ?? country,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** Matches a name, a country code or a calling code ("86", "+86", "chin", "CN"). */
export function searchAreaCodes(all: AreaCode[], query: string): AreaCode[] {
  const q = query.trim().toLowerCase().replace(/^\+/, '');
  if (q === '') return all;
  return all.filter(
    (a) => a.name.toLowerCase().includes(q) || a.country.toLowerCase() === q || a.code.slice(1).startsWith(q),
  );
}

/** "+86" for "CN"; empty for a country libphonenumber does not know. */
export function callingCode(country: string): string {
  try {
    return `+${getCountryCallingCode(country as CountryCode)}`;
  } catch {
    return '';
  }
}

/**
 * The area code a signed-in user's phone starts with: their country of residence (on the account),
 * when libphonenumber knows its calling code; a visitor picks one.
 */
export function defaultAreaCountry(country: string | null | undefined): string {
  const code = (country ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && callingCode(code) !== '' ? code : '';
}
