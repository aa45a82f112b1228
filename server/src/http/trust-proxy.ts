import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Which X-Forwarded-* hops the API believes (TRUST_PROXY). The client's address is what every per-IP
 * limit counts (sign-in throttles, code mails, passkey answers, the global rate limit), so believing
 * a hop the client wrote lets one client pose as many:
 *
 * - `false`: no proxy; the socket's address is the client.
 * - a list of proxies (addresses, CIDRs, or the names `loopback`, `linklocal`, `uniquelocal`): a hop
 *   is believed only when it comes from one of them, and the client is the nearest address, from the
 *   socket outwards, that is not one of them. Whatever a client wrote in X-Forwarded-For before the
 *   first proxy appended to it is never read, and a client reaching an instance directly (not from a
 *   listed proxy) is not believed at all.
 * - `true`: the list `loopback, uniquelocal` (127/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7): a
 *   proxy on this machine or on the private network, as our nginx and the production layout have.
 *
 * Fastify's own `true` (believe every hop, so the LEFTMOST entry, the client's own text, is the
 * client) is never produced here; nor a hop count, which cannot tell a proxy from a client that
 * reached the instance directly (Fastify refuses hop counts for that reason).
 */
export type TrustProxy = false | readonly string[];

/** `true`: a proxy on this machine or on the private network. */
export const PRIVATE_PROXIES: readonly string[] = ['loopback', 'uniquelocal'];
const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const PROXIES_MAX = 64;

/**
 * Narrowest prefixes a proxy entry may have: a wider one (0.0.0.0/1, ::/0) trusts much of the
 * internet to write its own address, which is "trust every hop" again.
 */
const PREFIX_MIN = { 4: 8, 6: 7 } as const;

/** An address, address/prefix (IPv4 /8..32, IPv6 /7..128 (fc00::/7 is the widest private one)) or one of proxy-addr's names. */
function isProxyEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family !== 4 && family !== 6) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return bits >= PREFIX_MIN[family] && bits <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY's text to a setting, or the reason it is refused. */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { issue: string } {
  const text = raw.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return { value: false };
  if (text === 'true' || text === '1') return { value: PRIVATE_PROXIES };
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length > PROXIES_MAX) return { issue: `TRUST_PROXY: at most ${PROXIES_MAX} proxies` };
  const bad = entries.filter((e) => !isProxyEntry(e));
  if (entries.length === 0 || bad.length > 0)
    return {
      issue: `TRUST_PROXY must be true, false, 1, 0 or the proxies' addresses/CIDRs (IPv4 /8 or narrower, IPv6 /7 or narrower), comma-separated (not ${bad.join(', ') || raw})`,
    };
  return { value: entries };
}

/** What Fastify is given: a test's `true` is TRUST_PROXY=true's list. */
export function fastifyTrustProxy(setting: TrustProxy | true | undefined): false | string[] {
  if (setting === undefined || setting === false) return false;
  return [...(setting === true ? PRIVATE_PROXIES : setting)];
}

/**
 * Logs once per process when a request carries X-Forwarded-For from a peer TRUST_PROXY does not list:
 * every client behind that proxy then counts as the proxy's one address in every per-IP limit (a few
 * wrong guesses lock everyone out), so the operator must add it. Only when a proxy list is set.
 */
export function warnUnlistedProxy(app: FastifyInstance, setting: TrustProxy | true | undefined): void {
  if (setting === undefined || setting === false) return;
  let warned = false;
  app.addHook('onRequest', (request, _reply, done) => {
    // request.ips is the socket's address plus every hop believed: only the socket means none was.
    if (!warned && request.headers['x-forwarded-for'] !== undefined && (request.ips?.length ?? 1) <= 1) {
      warned = true;
      request.log.warn(
        { peer: request.socket.remoteAddress },
        'X-Forwarded-For from a peer TRUST_PROXY does not list: its clients all count as this one address; list it in TRUST_PROXY',
      );
    }
    done();
  });
}
