import { describe, expect, it } from 'vitest';
import { agentTree, canonicalAddress, parseStat, socketInode } from './peer-process';

// Real rows: a listener on 0.0.0.0:2024, a client 127.0.0.1:44633 -> 127.0.0.1:50760 (inode 4242),
// a TIME_WAIT row (inode 0) on the same port, which must not match.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 139 1 00000000ec9f2fbf 100 0 0 10 0
   1: 0100007F:AE59 0100007F:C648 06 00000000:00000000 03:00000000 00000000     0        0 0 3 000000005c101302
   2: 0100007F:AE59 0100007F:C648 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 20 4 30 10 -1
`;
// ::1 port 40000 (inode 777) and an IPv4-mapped 127.0.0.1 port 40001 (inode 778).
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 777 1 0000000000000000 20 4 30 10 -1
   1: 0000000000000000FFFF00000100007F:9C41 0000000000000000FFFF00000100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 778 1 0000000000000000 20 4 30 10 -1
`;

describe('peer process lookup (pure parts)', () => {
  it('finds the socket inode of a local address and port in /proc/net/tcp and tcp6', () => {
    expect(socketInode(TCP, '127.0.0.1', 44633)).toBe(4242);
    expect(socketInode(TCP, '::ffff:127.0.0.1', 44633)).toBe(4242);
    expect(socketInode(TCP, '127.0.0.1', 44634)).toBeNull();
    expect(socketInode(TCP, '127.0.0.2', 44633)).toBeNull();
    expect(socketInode(TCP6, '::1', 40000)).toBe(777);
    expect(socketInode(TCP6, '127.0.0.1', 40001)).toBe(778);
    expect(socketInode(TCP6, 'not an address', 40001)).toBeNull();
  });

  it('writes addresses one way whatever their notation', () => {
    expect(canonicalAddress('::ffff:7f00:1')).toBe('::ffff:127.0.0.1');
    expect(canonicalAddress('0:0:0:0:0:0:0:1')).toBe(canonicalAddress('::1'));
  });

  it('reads pid, parent and process group even when the name holds spaces and parentheses', () => {
    expect(parseStat('1234 (node) S 1000 1234 1234 0 -1 4194560')).toEqual({
      pid: 1234,
      ppid: 1000,
      pgid: 1234,
    });
    expect(parseStat('77 (a (b) c) R 50 60 60 0')).toEqual({ pid: 77, ppid: 50, pgid: 60 });
    expect(parseStat('garbage')).toBeNull();
  });

  it("an agent's tree: its process group, and descendants that left it", () => {
    const stats = [
      { pid: 100, ppid: 1, pgid: 100 }, // the agent, a group leader
      { pid: 101, ppid: 100, pgid: 100 }, // its child in its group
      { pid: 102, ppid: 101, pgid: 102 }, // a grandchild that made its own group
      { pid: 103, ppid: 1, pgid: 100 }, // reparented to init but still in the group
      { pid: 200, ppid: 1, pgid: 200 }, // someone else
      { pid: 201, ppid: 200, pgid: 200 },
    ];
    expect(Object.fromEntries(agentTree(stats, [100]))).toEqual({
      100: 100,
      101: 100,
      102: 100,
      103: 100,
    });
    expect(agentTree(stats, []).size).toBe(0);
  });
});
