// Which local process is at the other end of a loopback connection (Linux /proc). An agent runs as
// the same user and can find the bearer token; a request from its process tree is refused whatever
// it carries.
import { readdir, readFile, readlink } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { join } from 'node:path';

export interface AgentProcessInfo {
  pid: number;
  agentId: string;
  sessionId: string;
}

export interface AgentPeer extends AgentProcessInfo {
  /** The process holding the socket (the agent or one of its descendants). */
  peerPid: number;
}

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
}

/** One address as 16 bytes (IPv4 as IPv4-mapped IPv6), so both tables compare alike. */
export function canonicalAddress(address: string): string | null {
  if (isIPv4(address)) return `::ffff:${address}`;
  if (!isIPv6(address)) return null;
  const mapped = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) {
    const v4 = mapped[2]!.split('.').map(Number);
    const hex = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!].map((n) => n.toString(16));
    return canonicalAddress(`${mapped[1]}${hex.join(':')}`);
  }
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = groups.map((g) => parseInt(g, 16));
  if (bytes.slice(0, 5).every((g) => g === 0) && bytes[5] === 0xffff) {
    return `::ffff:${bytes[6]! >> 8}.${bytes[6]! & 255}.${bytes[7]! >> 8}.${bytes[7]! & 255}`;
  }
  return bytes.map((g) => g.toString(16)).join(':');
}

/** /proc/net/tcp{,6} hex address: 32-bit words in host (little-endian) byte order. */
function procHexAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) =>
    [w.slice(6, 8), w.slice(4, 6), w.slice(2, 4), w.slice(0, 2)].map((b) => parseInt(b, 16)),
  );
  if (bytes.length === 4) return `::ffff:${bytes.join('.')}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  return canonicalAddress(groups.map((g) => g.toString(16)).join(':')) ?? '';
}

/** The socket inode whose local end is `address:port`, from /proc/net/tcp or tcp6 text; null if none. */
export function socketInode(table: string, address: string, port: number): number | null {
  const wanted = canonicalAddress(address);
  if (wanted === null) return null;
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const [hexAddress, hexPort] = fields[1]!.split(':');
    if (!hexAddress || !hexPort || parseInt(hexPort, 16) !== port) continue;
    if (procHexAddress(hexAddress) !== wanted) continue;
    const inode = Number(fields[9]);
    if (inode > 0) return inode;
  }
  return null;
}

/** pid, parent and process group from /proc/<pid>/stat (the name may hold spaces and parentheses). */
export function parseStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  const pid = parseInt(text, 10);
  if (close < 0 || !Number.isInteger(pid)) return null;
  const rest = text.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  if (!Number.isInteger(ppid) || !Number.isInteger(pgid)) return null;
  return { pid, ppid, pgid };
}

/**
 * Each process of an agent's tree, with the agent it belongs to: those in an agent's process group,
 * and those whose parent chain reaches an agent (a child that made itself a new group).
 */
export function agentTree(stats: ProcStat[], agentPids: number[]): Map<number, number> {
  const agents = new Set(agentPids);
  const parent = new Map(stats.map((s) => [s.pid, s.ppid]));
  const tree = new Map<number, number>();
  for (const s of stats) {
    if (agents.has(s.pgid)) {
      tree.set(s.pid, s.pgid);
      continue;
    }
    const seen = new Set<number>();
    for (
      let pid: number | undefined = s.pid;
      pid !== undefined && pid > 1 && !seen.has(pid);
      pid = parent.get(pid)
    ) {
      if (agents.has(pid)) {
        tree.set(s.pid, pid);
        break;
      }
      seen.add(pid);
    }
  }
  return tree;
}

const readText = (path: string) => readFile(path, 'utf8').catch(() => '');

async function holdsSocket(proc: string, pid: number, inode: number): Promise<boolean> {
  const fdDir = join(proc, String(pid), 'fd');
  const fds = await readdir(fdDir).catch(() => [] as string[]);
  const wanted = `socket:[${inode}]`;
  for (const fd of fds) {
    if ((await readlink(join(fdDir, fd)).catch(() => '')) === wanted) return true;
  }
  return false;
}

/**
 * The agent whose process tree holds the client end of a connection from `address:port`; null when
 * another process holds it; 'unknown' when no open socket matches — a client that sent its request
 * and closed at once, before it could be seen, is not given the benefit of the doubt.
 * Reads /proc asynchronously; a process that vanishes mid-scan is skipped.
 */
export async function findAgentPeer(
  address: string,
  port: number,
  agents: AgentProcessInfo[],
  proc = '/proc',
): Promise<AgentPeer | 'unknown' | null> {
  if (agents.length === 0) return null;
  const [tcp, tcp6] = await Promise.all([
    readText(join(proc, 'net/tcp')),
    readText(join(proc, 'net/tcp6')),
  ]);
  const inode = socketInode(tcp, address, port) ?? socketInode(tcp6, address, port);
  if (inode === null) return 'unknown';
  const pids = (await readdir(proc).catch(() => [] as string[])).filter((name) =>
    /^\d+$/.test(name),
  );
  const stats = (await Promise.all(pids.map((pid) => readText(join(proc, pid, 'stat')))))
    .map(parseStat)
    .filter((s): s is ProcStat => s !== null);
  const tree = agentTree(
    stats,
    agents.map((a) => a.pid),
  );
  for (const [pid, agentPid] of tree) {
    if (await holdsSocket(proc, pid, inode)) {
      const agent = agents.find((a) => a.pid === agentPid)!;
      return { ...agent, peerPid: pid };
    }
  }
  return null;
}
