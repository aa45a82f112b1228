import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { serializerFactory, serializerModeFromEnv, setDefaultSerializerMode } from './serializers.ts';

describe('response serializers', () => {
  it('production builds every route serializer at start, so a broken response schema stops the process there', async () => {
    // The server tests' setup switched the default to on-first-use; production never does.
    setDefaultSerializerMode('at-start');
    try {
      const app = buildApp({ db: createOfflineDb() });
      await app.ready();
      await app.close();
    } finally {
      setDefaultSerializerMode('on-first-use');
    }
  });

  it('on first use gives the same output, with fields outside the schema dropped', () => {
    const schema = { type: 'object', properties: { id: { type: 'string' }, amountMinor: { type: 'string' } } };
    const route = { method: 'GET', url: '/x', httpStatus: '200', schema };
    const doc = { id: 'a', amountMinor: '100', passwordHash: 'secret' };
    const eager = serializerFactory('at-start')(undefined, undefined)(route)(doc);
    const lazy = serializerFactory('on-first-use')(undefined, undefined)(route)(doc);
    expect(lazy).toBe(eager);
    expect(JSON.parse(lazy)).toEqual({ id: 'a', amountMinor: '100' });
  });

  it('SERIALIZER_MODE (main.ts): unset is at-start, on-first-use for the test runs, anything else refused', () => {
    expect(serializerModeFromEnv({})).toBe('at-start');
    expect(serializerModeFromEnv({ SERIALIZER_MODE: 'on-first-use' })).toBe('on-first-use');
    expect(() => serializerModeFromEnv({ SERIALIZER_MODE: 'lazy' })).toThrow(/SERIALIZER_MODE must be/);
  });
});
