import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../../shared/domain';
import { foldSessions } from './session-runs';

const session = (id: string, createdAt: number, over: Partial<SessionInfo> = {}): SessionInfo => ({
  sessionId: id,
  agentId: 'gemini',
  cwd: '/p',
  createdAt,
  state: 'closed',
  mode: 'default',
  sandbox: { profile: 'workspace-write' } as SessionInfo['sandbox'],
  endReason: 'agent_exit',
  ...over,
});

describe('the sessions list folds ended sessions that read the same', () => {
  it('a run of identical failed starts is one row with the others under it, newest first', () => {
    const runs = foldSessions([session('a', 1), session('c', 3), session('b', 2)]);
    expect(runs.map((r) => [r.session.sessionId, r.alike.map((s) => s.sessionId)])).toEqual([
      ['c', ['b', 'a']],
    ]);
  });

  it('open sessions, other folders, agents or endings, and runs broken by another row stay apart', () => {
    const runs = foldSessions([
      session('open', 6, { state: 'idle' }),
      session('e5', 5),
      session('other-folder', 4, { cwd: '/q' }),
      session('e3', 3),
      session('closed-by-person', 2, { endReason: 'session_closed' }),
      session('e1', 1),
      session('open-too', 0, { state: 'idle' }),
    ]);
    expect(runs.map((r) => r.session.sessionId)).toEqual([
      'open',
      'e5',
      'other-folder',
      'e3',
      'closed-by-person',
      'e1',
      'open-too',
    ]);
    expect(runs.every((r) => r.alike.length === 0)).toBe(true);
  });

  it('a session that can be resumed is never folded, so its Resume stays in sight', () => {
    const ended = { endReason: 'shutdown' } as const;
    const runs = foldSessions([
      session('r3', 3, { ...ended, resumable: 'resume' }),
      session('r2', 2, { ...ended, resumable: 'resume' }),
      session('e1', 1, ended),
      session('e0', 0, ended),
    ]);
    expect(runs.map((r) => [r.session.sessionId, r.alike.map((x) => x.sessionId)])).toEqual([
      ['r3', []],
      ['r2', []],
      ['e1', ['e0']],
    ]);
  });
});
