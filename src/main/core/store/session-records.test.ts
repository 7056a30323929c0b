import { describe, expect, it } from 'vitest';
import { openStoreEngine, type SessionRecord } from '.';
import { closedAfterEach } from '../../../../test/support/store';
import { SESSION_RECORDS_MAX } from './session-records';

const made = closedAfterEach();

const record = (sessionId: string, openedAt: number): SessionRecord => ({
  sessionId,
  agentId: 'gemini',
  acpSessionId: `acp-${sessionId}`,
  folders: ['/work/project'],
  sandbox: { profile: 'workspace-write', writable: ['project'], network: 'none' },
  mode: null,
  abilities: { list: true, resume: true, load: false, close: true },
  state: 'live',
  openedAt,
  endedAt: null,
});

describe('sessions remembered across restarts', () => {
  it('keep what a restarted core needs, how each ended and its transcript; closed ones are not read back', async () => {
    const path = made.tempDir().dbPath;
    const first = openStoreEngine({ path });
    first.rememberSession(record('a', 1));
    first.rememberSession(record('b', 2));
    first.rememberSession(record('c', 3));
    first.rememberSession({ ...record('a', 1), mode: 'plan' });
    first.saveTranscript('a', '{"kept":true}');
    first.sessionEnded('a', 'ended', 10);
    first.sessionEnded('b', 'closed', 11);
    first.rememberSession({ ...record('a', 1), mode: 'plan', state: 'ended', endedAt: 10 });
    await first.close();

    const second = made.store(openStoreEngine({ path }));
    const read = second.sessionRecords();
    expect(read.map((r) => [r.sessionId, r.state, r.endedAt])).toEqual([
      ['c', 'live', null],
      ['a', 'ended', 10],
    ]);
    expect(read[1]).toEqual({ ...record('a', 1), mode: 'plan', state: 'ended', endedAt: 10 });
    // A record written again keeps the transcript kept before.
    expect(second.keptTranscript('a')).toBe('{"kept":true}');
    expect(second.keptTranscript('c')).toBeNull();
    expect(second.keptTranscript('nobody')).toBeNull();
  });

  it('are read back bounded, newest first', () => {
    const store = made.store(openStoreEngine({ path: made.tempDir().dbPath }));
    for (let i = 0; i < SESSION_RECORDS_MAX + 20; i++) store.rememberSession(record(`s${i}`, i));
    const read = store.sessionRecords();
    expect(read).toHaveLength(SESSION_RECORDS_MAX);
    expect(read[0]!.openedAt).toBe(SESSION_RECORDS_MAX + 19);
  });
});
