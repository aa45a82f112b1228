import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'mmdb-lib';

/**
 * The approximate place of an IP address, from offline data only (no look-up leaves the server):
 * shown in a new-device mail and the login history so the owner can tell "that was not me".
 *
 * Data: @ip-location-db/geo-whois-asn-country-mmdb (CC0-1.0, ~8 MB, IPv4 and IPv6), read with
 * mmdb-lib. It knows the country only; region and city stay null. The same reader takes the
 * city variants of the same family (their records add `state1` and `city`), so a richer file is a
 * one-line change of DATA_FILE, at the price of ~130 MB of memory per API instance, which is why the
 * country file was chosen.
 */
export interface IpPlace {
  /** ISO 3166-1 alpha-2, e.g. "DE"; null when unknown, private or loopback. */
  country: string | null;
  region: string | null;
  city: string | null;
}

interface PlaceRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

const DATA_PACKAGE = '@ip-location-db/geo-whois-asn-country-mmdb';
const DATA_FILE = 'geo-whois-asn-country.mmdb';
const NOWHERE: IpPlace = Object.freeze({ country: null, region: null, city: null });

let reader: Reader<Response> | undefined;

/** Opened on first use (a read of ~8 MB), then shared: the file never changes while the process runs. */
function database(): Reader<Response> {
  if (reader === undefined) {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve(`${DATA_PACKAGE}/package.json`));
    reader = new Reader<Response>(readFileSync(join(dir, DATA_FILE)));
  }
  return reader;
}

/**
 * Only public unicast addresses have a place; IPv4-mapped IPv6 (::ffff:a.b.c.d) counts as its IPv4.
 * node:net decides what is an address: ipaddr.js alone would also take inet_aton shorthands ("1.2.3").
 */
function publicAddress(ip: string): string | null {
  if (isIP(ip) === 0) return null;
  const address = ipaddr.process(ip);
  return address.range() === 'unicast' ? address.toString() : null;
}

const text = (value: unknown, maxLength: number): string | null =>
  typeof value === 'string' && value.length > 0 ? value.slice(0, maxLength) : null;

export function placeFromIp(ip: string): IpPlace {
  const address = publicAddress(ip.trim());
  if (address === null) return { ...NOWHERE };
  // ip-location-db's own record shape, not MaxMind's nested one that mmdb-lib's types describe.
  const record = database().get(address) as unknown as PlaceRecord | null;
  if (!record) return { ...NOWHERE };
  const country = text(record.country_code, 2);
  return {
    country: country && /^[A-Z]{2}$/.test(country) ? country : null,
    region: text(record.state1, 100),
    city: text(record.city, 100),
  };
}
