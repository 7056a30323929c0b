// A starting agent's scheduling group, with real processes: each `sleep` leads a session of its own,
// as an agent does (spawned detached), so it has a group of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { groupNice, STARTING_NICE, yieldWhileStarting } from './start-priority';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

function agent(): number {
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  started.push(child);
  return child.pid!;
}

describe.skipIf(!existsSync('/proc/self/autogroup'))('a starting agent’s scheduling group', () => {
  it('is lowered while it starts and set back once, in its own group only', () => {
    const ours = groupNice(process.pid);
    const pid = agent();
    const setBack = yieldWhileStarting(pid);
    expect(groupNice(pid)).toBe(STARTING_NICE);
    expect(groupNice(process.pid)).toBe(ours);
    setBack();
    expect(groupNice(pid)).toBe(0);
    // A second call changes nothing, whoever set the group since.
    writeFileSync(`/proc/${pid}/autogroup`, String(STARTING_NICE));
    setBack();
    expect(groupNice(pid)).toBe(STARTING_NICE);
  });

  it('an agent that chose a nice of its own while it started keeps it', () => {
    const pid = agent();
    const setBack = yieldWhileStarting(pid);
    writeFileSync(`/proc/${pid}/autogroup`, '12');
    setBack();
    expect(groupNice(pid)).toBe(12);
  });

  it('a process that is gone, or none, is left alone', async () => {
    const child = spawn('true', { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    expect(groupNice(child.pid!)).toBeNull();
    expect(() => yieldWhileStarting(child.pid)()).not.toThrow();
    expect(() => yieldWhileStarting(undefined)()).not.toThrow();
  });
});
