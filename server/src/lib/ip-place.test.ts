import { describe, expect, it } from 'vitest';
import { placeFromIp } from './ip-place.ts';

const nowhere = { country: null, region: null, city: null };

describe('placeFromIp', () => {
  it('finds the country of public IPv4 and IPv6 addresses, offline', () => {
    expect(placeFromIp('8.8.8.8').country).toBe('US');
    expect(placeFromIp('2001:4860:4860::8888').country).toBe('US');
    expect(placeFromIp('193.99.144.80').country).toBe('DE');
    // An IPv4-mapped IPv6 address (what a dual-stack socket reports) is its IPv4.
    expect(placeFromIp('::ffff:193.99.144.80').country).toBe('DE');
  });

  it('knows no place for loopback, private, link-local, shared and reserved addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.0.1',
      '100.64.0.1',
      'fe80::1',
      'fd00::1',
      '0.0.0.0',
      '::ffff:127.0.0.1',
      '192.0.2.1',
    ])
      expect(placeFromIp(ip), ip).toEqual(nowhere);
  });

  it('answers nowhere for what is not an address, never throws', () => {
    for (const ip of ['', 'unknown', '999.1.1.1', '1.2.3', 'x'.repeat(10_000), '8.8.8.8, 1.1.1.1'])
      expect(placeFromIp(ip), ip.slice(0, 20)).toEqual(nowhere);
  });

  it('has only a two-letter country code or null in every field shape', () => {
    const place = placeFromIp('8.8.8.8');
    expect(Object.keys(place).sort()).toEqual(['city', 'country', 'region']);
    expect(place.country).toMatch(/^[A-Z]{2}$/);
  });
});
