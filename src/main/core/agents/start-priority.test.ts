// A starting agent's scheduling group. With real processes: each `sleep` leads a session of its own,
// as an agent does (spawned detached), so it has a group of its own. And with group files that say
// what the kernel says to a person's (unprivileged) core: one change every 100 ms, machine-wide.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  groupNice,
  STARTING_NICE,
  StartPriority,
  yieldWhileStarting,
  type GroupFiles,
  type GroupWrite,
} from './start-priority';
import { hasSysAdmin } from '../../../../test/support/capabilities';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  vi.useRealTimers();
});

function agent(): number {
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  started.push(child);
  return child.pid!;
}

const runs = () => true;

// Each test changes groups one after the other, which only a privileged process may do at will.
describe.skipIf(!existsSync('/proc/self/autogroup') || !hasSysAdmin())(
  'a starting agent’s scheduling group',
  () => {
    it('is lowered while it starts and set back once, in its own group only', () => {
      const ours = groupNice(process.pid);
      const pid = agent();
      const setBack = yieldWhileStarting(pid, runs);
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
      const setBack = yieldWhileStarting(pid, runs);
      writeFileSync(`/proc/${pid}/autogroup`, '12');
      setBack();
      expect(groupNice(pid)).toBe(12);
    });

    it('a process that is gone, or none, is left alone', async () => {
      const child = spawn('true', { detached: true, stdio: 'ignore' });
      await new Promise((resolve) => child.once('exit', resolve));
      expect(groupNice(child.pid!)).toBeNull();
      expect(() => yieldWhileStarting(child.pid, runs)()).not.toThrow();
      expect(() => yieldWhileStarting(undefined, runs)()).not.toThrow();
    });
  },
);

/** Groups as the kernel keeps them for an unprivileged process: one change per `gapMs`. */
function limitedGroups(gapMs = 100) {
  const nice = new Map<number, number>();
  let next = 0;
  const files: GroupFiles = {
    read: (pid) => nice.get(pid) ?? null,
    write(pid, value): GroupWrite {
      if (!nice.has(pid)) return 'failed';
      if (Date.now() < next) return 'busy';
      next = Date.now() + gapMs;
      nice.set(pid, value);
      return 'done';
    },
  };
  return { files, nice };
}

describe.skipIf(process.platform !== 'linux')('one change of a group every 100 ms', () => {
  it('a group owed its 0 is set back on a later try, and none is lowered meanwhile', () => {
    vi.useFakeTimers();
    const { files, nice } = limitedGroups();
    [1, 2, 3].forEach((pid) => nice.set(pid, 0));
    const priority = new StartPriority(files, 110);

    const setBackFirst = priority.yieldWhileStarting(1, runs);
    expect(nice.get(1)).toBe(STARTING_NICE);
    // Refused for now: this one starts as it would have.
    priority.yieldWhileStarting(2, runs)();
    expect(nice.get(2)).toBe(0);
    setBackFirst();
    expect(nice.get(1)).toBe(STARTING_NICE);
    expect(priority.owing).toBe(1);
    vi.advanceTimersByTime(105);
    // Past the kernel's gap, but a group is owed: no other is lowered before it is set back.
    priority.yieldWhileStarting(3, runs)();
    expect(nice.get(3)).toBe(0);
    vi.advanceTimersByTime(5);
    expect(nice.get(1)).toBe(0);
    expect(priority.owing).toBe(0);
    vi.advanceTimersByTime(100);
    priority.yieldWhileStarting(3, runs);
    expect(nice.get(3)).toBe(STARTING_NICE);
  });

  it('an owed group whose agent ended, or that chose its own nice, is not written again', () => {
    vi.useFakeTimers();
    const { files, nice } = limitedGroups();
    [1, 2, 3].forEach((pid) => nice.set(pid, 0));
    const priority = new StartPriority(files, 110);
    let running = true;
    const first = priority.yieldWhileStarting(1, () => running);
    vi.advanceTimersByTime(100);
    const second = priority.yieldWhileStarting(2, runs);
    first();
    second();
    expect(priority.owing).toBe(2);
    running = false;
    nice.set(2, 9);
    vi.advanceTimersByTime(110);
    expect(priority.owing).toBe(0);
    expect([nice.get(1), nice.get(2)]).toEqual([STARTING_NICE, 9]);
  });
});
