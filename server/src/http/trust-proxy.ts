import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';

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
 * Widest entries allowed: a wider one (0.0.0.0/1, ::/0, 2000::/3 in /7 pieces) trusts much of the
 * internet to write its own address, which is "trust every hop" again. IPv4 down to /8 (10/8 is
 * one); IPv6 down to /32 (a provider's allocation), or down to /7 inside the private fc00::/7.
 * IPv4-mapped IPv6 entries (::ffff:a.b.c.d) are refused: proxy-addr matches them against every IPv4
 * peer, so ::ffff:0:0/96 would trust all of IPv4; the IPv4 form says the same.
 */
const IPV4_PREFIX_MIN = 8;
const IPV6_PREFIX_MIN = 32;
const IPV6_PRIVATE_PREFIX_MIN = 7;

/** An address, a CIDR within the bounds above, or one of proxy-addr's names. */
function isProxyEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return false;
  const family = isIP(address);
  if (family === 4) return prefix === undefined || (Number(prefix) >= IPV4_PREFIX_MIN && Number(prefix) <= 32);
  if (family !== 6) return false;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  const widest = parsed.range() === 'uniqueLocal' ? IPV6_PRIVATE_PREFIX_MIN : IPV6_PREFIX_MIN;
  return bits >= widest && bits <= 128;
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
      issue: `TRUST_PROXY must be true, false, 1, 0 or the proxies' addresses/CIDRs (IPv4 /8 or narrower, IPv6 /32 or narrower, /7 inside fc00::/7; IPv4 peers as IPv4), comma-separated (not ${bad.join(', ') || raw})`,
    };
  return { value: entries };
}

/** What Fastify is given: a test's `true` is TRUST_PROXY=true's list. */
export function fastifyTrustProxy(setting: TrustProxy | true | undefined): false | string[] {
  if (setting === undefined || setting === false) return false;
  return [...(setting === true ? PRIVATE_PROXIES : setting)];
}

/** Distinct unlisted peers logged per process: enough to see them, not a log flood. */
const UNLISTED_PEERS_LOGGED_MAX = 16;
/** Peers judged per process; beyond it no more are (a proxy's peers are few; clients' are not ours to list). */
const PEERS_JUDGED_MAX = 1_024;

/**
 * Logs a request carrying X-Forwarded-For from a peer TRUST_PROXY does not list, once per peer (up
 * to a bound): if the peer is a proxy, every client behind it counts as its one address in every
 * per-IP limit (a few wrong guesses lock everyone out), and the operator must list it; if it is not,
 * a client is sending the header straight to the instance, and must not be listed. Only when a
 * proxy list is set. Each peer is judged once (request.ips parses the header chain): behind nginx
 * every request carries the header, and this must not cost it anything after the first. (Behind a
 * listed nginx that replaces the header, an unlisted hop before it is not seen here.)
 */
export function warnUnlistedProxy(app: FastifyInstance, setting: TrustProxy | true | undefined): void {
  if (setting === undefined || setting === false) return;
  const judged = new Set<string>();
  let logged = 0;
  app.addHook('onRequest', (request, _reply, done) => {
    const peer = request.socket.remoteAddress ?? '';
    if (request.headers['x-forwarded-for'] !== undefined && judged.size < PEERS_JUDGED_MAX && !judged.has(peer)) {
      judged.add(peer);
      // request.ips is the socket's address plus every hop believed: only the socket means none was.
      if ((request.ips?.length ?? 1) <= 1 && logged < UNLISTED_PEERS_LOGGED_MAX) {
        logged += 1;
        request.log.warn(
          { peer },
          'X-Forwarded-For from a peer TRUST_PROXY does not list: if it is your proxy, list it (its clients all count as its one address now); if it is not, a client sends the header directly: do not list it',
        );
      }
    }
    done();
  });
}
