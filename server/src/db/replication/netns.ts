import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A small multi-host lab on one machine (issue 34's rehearsal, test only): one network namespace per
 * "host", each with a veth into a bridge in the caller's namespace, so the test process reaches every
 * host and the hosts reach each other on their own addresses (10.234.N.0/24). `cut(a, b)` drops the
 * traffic between two hosts both ways (a blackhole route on each side: the cable between them pulled,
 * the rest of the network up); `heal` puts it back. Needs root (`ip netns`, `ip link`).
 */
export interface NetnsHost {
  /** The namespace's name, for `ip netns exec`. */
  ns: string;
  ip: string;
}

export interface NetnsLab {
  subnet: string;
  host(name: string): NetnsHost;
  cut(a: string, b: string): Promise<void>;
  heal(a: string, b: string): Promise<void>;
  destroy(): Promise<void>;
}

/** Why the lab cannot run here (not root, no `ip netns`), or undefined when it can. */
export async function netnsUnavailable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'network namespaces need root (ip netns add); this runner is not root';
  const probe = `cw34probe${process.pid % 100_000}`;
  try {
    await run('ip', ['netns', 'add', probe]);
    await run('ip', ['netns', 'del', probe]);
    return undefined;
  } catch (err) {
    return `ip netns is not available here: ${String((err as { stderr?: string }).stderr ?? err).trim()}`;
  }
}

const ip = (...args: string[]) => run('ip', args);
const inNs = (ns: string, ...args: string[]) => run('ip', ['netns', 'exec', ns, 'ip', ...args]);

export async function createNetnsLab(names: readonly string[]): Promise<NetnsLab> {
  if (names.length > 50) throw new Error('at most 50 hosts');
  const tag = `${process.pid % 100_000}`;
  const octet = (process.pid % 200) + 20;
  const subnet = `10.234.${octet}.0/24`;
  const bridge = `cw34b${tag}`;
  const hosts = new Map<string, NetnsHost & { veth: string }>();
  const destroy = async () => {
    for (const h of hosts.values()) await ip('netns', 'del', h.ns).catch(() => undefined);
    await ip('link', 'del', bridge).catch(() => undefined);
  };
  try {
    await ip('link', 'add', bridge, 'type', 'bridge');
    await ip('addr', 'add', `10.234.${octet}.1/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    for (const [i, name] of names.entries()) {
      const host = { ns: `cw34-${tag}-${name}`, ip: `10.234.${octet}.${i + 2}`, veth: `cw34v${tag}${i}` };
      hosts.set(name, host);
      await ip('netns', 'add', host.ns);
      await ip('link', 'add', host.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.ns);
      await ip('link', 'set', host.veth, 'master', bridge, 'up');
      await inNs(host.ns, 'link', 'set', 'lo', 'up');
      await inNs(host.ns, 'addr', 'add', `${host.ip}/24`, 'dev', 'eth0');
      await inNs(host.ns, 'link', 'set', 'eth0', 'up');
    }
  } catch (err) {
    await destroy();
    throw err;
  }
  const get = (name: string) => {
    const h = hosts.get(name);
    if (!h) throw new Error(`no host ${name}`);
    return h;
  };
  const routes = async (verb: 'add' | 'del', a: string, b: string) => {
    const [x, y] = [get(a), get(b)];
    await inNs(x.ns, 'route', verb, 'blackhole', `${y.ip}/32`);
    await inNs(y.ns, 'route', verb, 'blackhole', `${x.ip}/32`);
  };
  return {
    subnet,
    host: (name) => {
      const { ns, ip: address } = get(name);
      return { ns, ip: address };
    },
    cut: (a, b) => routes('add', a, b),
    heal: (a, b) => routes('del', a, b),
    destroy,
  };
}
