import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Socket inodes listening on a TCP port (IPv4 and IPv6), from /proc/net. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      const state = fields[3];
      const inode = fields[9];
      if (local?.endsWith(`:${hexPort}`) && state === '0A' && inode) inodes.add(inode);
    }
  }
  return inodes;
}

/**
 * The process listening on a port, identified by pid and start time (so a
 * restarted server with a recycled pid is still told apart). Linux only.
 */
export function listeningProcess(port: number): { pid: number; startTime: string } | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const match = /^socket:\[(\d+)\]$/.exec(target);
      if (match?.[1] && inodes.has(match[1])) {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
        return { pid: Number(entry), startTime };
      }
    }
  }
  return null;
}
