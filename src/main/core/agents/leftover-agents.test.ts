import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processIdentity } from '../process-identity';
import { endLeftoverAgents } from './leftover-agents';

const started: ChildProcess[] = [];
const homes: string[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already ended by the test.
    }
  }
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A detached process (its own session) with a child, as an agent is spawned. */
function agentLike(): ChildProcess {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & exec sleep 300'], {
    detached: true,
    stdio: 'ignore',
  });
  started.push(child);
  return child;
}

/** A home holding one record for `pid`, written by a core that is `core`. */
function homeWith(pid: number, startTime: string, core: { pid: number; startTime: string }) {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-leftovers-'));
  homes.push(home);
  mkdirSync(join(home, 'run', 'agents'), { recursive: true });
  const record = { pid, startTime, pgid: pid, sid: pid, agentId: 'a', core };
  writeFileSync(join(home, 'run', 'agents', `${pid}.json`), JSON.stringify(record));
  return home;
}

const sessionOf = (sid: number) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => processIdentity(Number(name))?.sid === sid);

const deadCore = { pid: process.pid, startTime: '0' };

describe.skipIf(process.platform !== 'linux')('agents a dead core left', () => {
  it('are ended with their whole session and reported', async () => {
    const agent = agentLike();
    await vi.waitFor(() => expect(sessionOf(agent.pid!)).toHaveLength(2));
    const { startTime } = processIdentity(agent.pid!)!;
    const ended = endLeftoverAgents(homeWith(agent.pid!, startTime, deadCore));
    expect(ended).toEqual([
      { agentId: 'a', pid: agent.pid, startTime, sid: agent.pid, killed: expect.any(Array) },
    ]);
    expect(ended[0]!.killed).toHaveLength(2);
    await vi.waitFor(() => expect(sessionOf(agent.pid!)).toEqual([]));
  });

  it('are not killed when the pid now runs with another start time (a reused number)', async () => {
    const other = agentLike();
    await vi.waitFor(() => expect(processIdentity(other.pid!)).not.toBeNull());
    const home = homeWith(other.pid!, '1', deadCore);
    expect(endLeftoverAgents(home)).toEqual([]);
    expect(processIdentity(other.pid!)).not.toBeNull();
    // The record is spent all the same.
    expect(readdirSync(join(home, 'run', 'agents'))).toEqual([]);
  });

  it('are left alone while the core that recorded them runs', async () => {
    const agent = agentLike();
    await vi.waitFor(() => expect(processIdentity(agent.pid!)).not.toBeNull());
    const { startTime } = processIdentity(agent.pid!)!;
    const liveCore = { pid: process.pid, startTime: processIdentity(process.pid)!.startTime };
    const home = homeWith(agent.pid!, startTime, liveCore);
    expect(endLeftoverAgents(home)).toEqual([]);
    expect(processIdentity(agent.pid!)).not.toBeNull();
    expect(existsSync(join(home, 'run', 'agents', `${agent.pid}.json`))).toBe(true);
  });

  it('ignores a record whose session is not its own pid (it could name anyone else)', async () => {
    const [agent, bystander] = [agentLike(), agentLike()];
    await vi.waitFor(() => expect(sessionOf(bystander.pid!)).toHaveLength(2));
    const home = homeWith(agent.pid!, processIdentity(agent.pid!)!.startTime, deadCore);
    const file = join(home, 'run', 'agents', `${agent.pid}.json`);
    const record = {
      pid: agent.pid,
      startTime: processIdentity(agent.pid!)!.startTime,
      pgid: bystander.pid,
      sid: bystander.pid,
      agentId: 'a',
      core: deadCore,
    };
    writeFileSync(file, JSON.stringify(record));
    expect(endLeftoverAgents(home)).toEqual([]);
    expect(sessionOf(bystander.pid!)).toHaveLength(2);
  });
});
