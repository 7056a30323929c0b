// Agents a previous core left running. Each agent the core starts is recorded in
// $GATEHOUSE_HOME/run/agents/ (pid, the kernel's start time of that pid, process group, session)
// and the record removed when the agent exits. A core that dies without cleaning up leaves its
// records; the next core on the home ends what they name. A pid is only trusted with its start
// time, so a number the system gave to another process since is never killed. Linux only (/proc):
// elsewhere nothing is recorded and the lifeline (lifeline.ts) is the only guard.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ownIdentity, processIdentity, stillRunning } from '../process-identity';

const RECORD_MAX_BYTES = 4096;

const Pid = z
  .number()
  .int()
  .positive()
  .max(2 ** 22);
const AgentRecord = z
  .object({
    pid: Pid,
    startTime: z.string().regex(/^\d{1,20}$/),
    pgid: Pid,
    sid: Pid,
    agentId: z.string().max(200),
    core: z.object({ pid: Pid, startTime: z.string().regex(/^\d{1,20}$/) }),
  })
  // Spawned detached: the agent leads its own group and session, and only those are ended.
  .refine((record) => record.pgid === record.pid && record.sid === record.pid);
type AgentRecord = z.infer<typeof AgentRecord>;

const recordsDir = (home: string): string => join(home, 'run', 'agents');

/** Records a started agent; `remove` forgets it once it has exited. Null where nothing is recorded. */
export function recordAgent(home: string, agentId: string, pid: number): { remove(): void } | null {
  const agent = processIdentity(pid);
  const core = ownIdentity();
  if (!agent || !core || agent.sid !== pid) return null;
  const record: AgentRecord = {
    pid,
    ...agent,
    agentId,
    core: { pid: process.pid, startTime: core.startTime },
  };
  const dir = recordsDir(home);
  const file = join(dir, `${pid}.json`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  } catch {
    // Unrecorded, the agent still has its lifeline; it must not be left unowned by a throw here.
    return null;
  }
  return { remove: () => rmSync(file, { force: true }) };
}

export interface LeftoverAgent {
  agentId: string;
  pid: number;
  startTime: string;
  sid: number;
  /** The processes of its session that were still running, all killed. */
  killed: number[];
}

/**
 * Ends the agents the records of a dead core name, every process of each agent's session (what it
 * spawned, even in another process group), and returns what was ended for the audit. Records of a
 * core still running are left alone.
 */
export function endLeftoverAgents(home: string): LeftoverAgent[] {
  const dir = recordsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const ended: LeftoverAgent[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const record = readRecord(file);
    if (record && stillRunning(record.core)) continue;
    rmSync(file, { force: true });
    const killed = record ? endSession(record) : [];
    if (record && killed.length > 0) {
      const { agentId, pid, startTime, sid } = record;
      ended.push({ agentId, pid, startTime, sid, killed });
    }
  }
  return ended;
}

function readRecord(file: string): AgentRecord | null {
  try {
    if (statSync(file).size > RECORD_MAX_BYTES) return null;
    const parsed = AgentRecord.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Kills every process in the agent's session. The session's number is the agent's pid (it was
 * spawned detached), and Linux gives a pid to no new process while any process still has it as
 * its session or group: when that pid runs another program now, the old session is empty.
 */
function endSession(record: AgentRecord): number[] {
  const leader = processIdentity(record.pid);
  if (leader && leader.startTime !== record.startTime) return [];
  const members: { pid: number; pgid: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const identity = processIdentity(pid);
    if (identity?.sid === record.sid && pid !== process.pid)
      members.push({ pid, pgid: identity.pgid });
  }
  for (const pgid of new Set(members.map((m) => m.pgid))) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return members.map((m) => m.pid);
}
