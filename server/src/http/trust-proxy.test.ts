import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { fastifyTrustProxy, parseTrustProxy, type TrustProxy, warnUnlistedProxy } from './trust-proxy.ts';

/** The client address and scheme Fastify gives a request under `setting`. */
async function seen(setting: TrustProxy | true, headers: Record<string, string>, remoteAddress = '127.0.0.1') {
  const app = Fastify({ trustProxy: fastifyTrustProxy(setting) });
  app.get('/ip', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  try {
    const res = await app.inject({ method: 'GET', url: '/ip', headers, remoteAddress });
    return res.json() as { ip: string; protocol: string };
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY', () => {
  it('reads false, true (private proxies) and proxy addresses; refuses the rest', () => {
    expect(parseTrustProxy('false')).toEqual({ value: false });
    expect(parseTrustProxy('0')).toEqual({ value: false });
    expect(parseTrustProxy('true')).toEqual({ value: ['loopback', 'uniquelocal'] });
    expect(parseTrustProxy('TRUE')).toEqual({ value: ['loopback', 'uniquelocal'] });
    expect(parseTrustProxy('1')).toEqual({ value: ['loopback', 'uniquelocal'] });
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1, fd00::/8, LinkLocal, 2001:db8::/32, fc00::/7')).toEqual({
      value: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'linklocal', '2001:db8::/32', 'fc00::/7'],
    });
    for (const bad of [
      '2',
      'yes',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.1/8/1',
      'example.com',
      ',',
      '1.2.3',
      '0.0.0.0/0',
      '0.0.0.0/1,128.0.0.0/1',
      '::/0',
      '2000::/3',
    ]) {
      expect(parseTrustProxy(bad), bad).toHaveProperty('issue');
    }
  });

  it('config: TRUST_PROXY=true is the private proxies; a bad value stops the start with its reason', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual(['loopback', 'uniquelocal']);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'everything' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'everything' })).toThrow(/TRUST_PROXY must be/);
  });

  it('true: behind a private proxy, an X-Forwarded-For entry the client wrote is never its address', async () => {
    // The client sent "6.6.6.6"; an appending proxy added the address it saw, 203.0.113.7.
    const headers = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7', 'x-forwarded-proto': 'https' };
    expect(await seen(true, headers)).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    // A client claiming to be a private hop itself gains nothing: the proxy's own entry is nearer.
    expect((await seen(true, { 'x-forwarded-for': '10.9.9.9, 203.0.113.7' })).ip).toBe('203.0.113.7');
    // Two proxies in a row (nginx on the machine behind a load balancer on the private network).
    expect((await seen(true, { 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.2' })).ip).toBe('203.0.113.7');
    // A public peer is no proxy: a client reaching the instance directly is its own address.
    expect(await seen(true, headers, '198.51.100.9')).toEqual({ ip: '198.51.100.9', protocol: 'http' });
    // No proxy: the socket.
    expect(await seen(false, headers)).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });

  it('by address: the nearest hop that is not a listed proxy; an unlisted peer is not believed at all', async () => {
    const proxies = ['127.0.0.1', '10.0.0.0/8'];
    const headers = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.1.2.3', 'x-forwarded-proto': 'https' };
    expect(await seen(proxies, headers)).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    // A client reaching the instance directly (not through a listed proxy) gets nothing from its headers.
    expect(await seen(proxies, headers, '198.51.100.9')).toEqual({ ip: '198.51.100.9', protocol: 'http' });
  });

  it('warns once when a forwarded request comes from a peer the list does not name', async () => {
    const lines: string[] = [];
    const app = Fastify({
      trustProxy: fastifyTrustProxy(true),
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
    });
    warnUnlistedProxy(app, true);
    app.get('/ip', async (request) => ({ ip: request.ip }));
    try {
      const from = (remoteAddress: string) =>
        app.inject({ method: 'GET', url: '/ip', headers: { 'x-forwarded-for': '203.0.113.7' }, remoteAddress });
      expect((await from('10.0.0.2')).json()).toEqual({ ip: '203.0.113.7' });
      expect(lines).toEqual([]);
      expect((await from('35.191.0.1')).json()).toEqual({ ip: '35.191.0.1' });
      await from('35.191.0.1');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ peer: '35.191.0.1', level: 40 });
      // Once per peer, up to a bound: a second unlisted peer is reported too, a flood of them is not.
      for (let i = 2; i < 40; i++) await from(`35.191.0.${i}`);
      expect(lines).toHaveLength(16);
    } finally {
      await app.close();
    }
  });
});
