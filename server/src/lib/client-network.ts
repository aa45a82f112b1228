import { isIPv4, isIPv6 } from 'node:net';

/** The 8 groups of an IPv6 address (an embedded IPv4 tail counts as two), "::" expanded. */
function groupsOf(ip: string): string[] {
  const [left = '', right] = ip.split('::') as [string, string | undefined];
  const l = left === '' ? [] : left.split(':');
  const r = right === undefined || right === '' ? [] : right.split(':');
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes('.') ? 2 : 1), 0);
  const fill = right === undefined ? 0 : 8 - width(l) - width(r);
  return [...l, ...Array<string>(Math.max(0, fill)).fill('0'), ...r];
}

/**
 * The network a client is counted by in every per-IP limit (sign-in and passkey throttles, code mails,
 * user mails, uploads; the global rate limit does the same itself): an IPv4 address as it is, an IPv6 address by its /64.
 * One host is commonly given a whole /64 (SLAAC, privacy addresses), so counting single IPv6 addresses
 * gave one machine 2^64 budgets (issue 38 for uploads; the other limits since). Anything else (should
 * not happen: request.ip is an address) is counted as given. Not for display: sessions and the audit
 * keep the address itself.
 */
export function clientNetwork(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return ip;
  const prefix = groupsOf(bare.toLowerCase())
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
