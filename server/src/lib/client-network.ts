import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** NAT64's well-known prefix (RFC 6052): the last 32 bits are an IPv4 client's address. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The network a client is counted by in every per-IP limit (sign-in and passkey throttles, code mails,
 * user mails, support messages, uploads; the global rate limit does the same itself): an IPv4 address
 * as it is, an IPv6 address by its /64. One host is commonly given a whole /64 (SLAAC, privacy
 * addresses), so counting single IPv6 addresses gave one machine 2^64 budgets (issue 38 for uploads;
 * the other limits since). An IPv4 client written as IPv6 counts as that IPv4 address, in any spelling
 * of ::ffff:a.b.c.d and behind NAT64 (64:ff9b::/96): else every such client would share one /64.
 * Anything else (should not happen: request.ip is an address) is counted as given. Not for display:
 * sessions and the audit keep the address itself.
 */
export function clientNetwork(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  // node:net decides what is an address: ipaddr.js alone would also take inet_aton shorthands ("1.2.3").
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return ip;
  const address = ipaddr.IPv6.parse(bare);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  if (address.match(NAT64)) return ipaddr.fromByteArray(address.toByteArray().slice(12)).toString();
  const prefix = address.parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
