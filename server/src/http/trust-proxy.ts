import { isIP } from 'node:net';

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

/** An address, address/prefix (IPv4 /0..32, IPv6 /0..128) or one of proxy-addr's names. */
function isProxyEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
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
      issue: `TRUST_PROXY must be true, false, 1, 0 or the proxies' addresses/CIDRs, comma-separated (not ${bad.join(', ') || raw})`,
    };
  return { value: entries };
}

/** What Fastify is given: a test's `true` is TRUST_PROXY=true's list. */
export function fastifyTrustProxy(setting: TrustProxy | true | undefined): false | string[] {
  if (setting === undefined || setting === false) return false;
  return [...(setting === true ? PRIVATE_PROXIES : setting)];
}
