// Which process a pid is, as the kernel says: a pid is only trusted with the kernel's start time of
// that pid, so a number the system gave to another process since is never taken for it. Linux only
// (/proc): elsewhere nothing is known.
import { readFileSync } from 'node:fs';

/** What the kernel says about a live process: when it started (clock ticks after boot), its group and session. */
export interface ProcessIdentity {
  startTime: string;
  pgid: number;
  sid: number;
}

/**
 * /proc/<pid>/stat read past the command name (which may hold spaces and parentheses), or null. A
 * zombie is not live: it has exited and waits only for its parent to read its status.
 */
export function processIdentity(pid: number): ProcessIdentity | null {
  if (process.platform !== 'linux') return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after "(comm)": state ppid pgrp session … starttime is the 22nd field of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  const [pgid, sid, startTime] = [Number(fields[2]), Number(fields[3]), fields[19]];
  if (!Number.isInteger(pgid) || !Number.isInteger(sid) || !startTime || !/^\d+$/.test(startTime))
    return null;
  return { startTime, pgid, sid };
}

/** This core's own identity, which does not change while it runs: read once, not at every start. */
let own: ProcessIdentity | null | undefined;
export const ownIdentity = (): ProcessIdentity | null => (own ??= processIdentity(process.pid));

/** Whether the process that had `pid` when it was seen, started at `startTime`, still runs. */
export function stillRunning(seen: { pid: number; startTime: string }): boolean {
  return processIdentity(seen.pid)?.startTime === seen.startTime;
}
