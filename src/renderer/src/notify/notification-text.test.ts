// A notification leads with what will run or be touched; the agent's title is shown as its words,
// its line breaks and hidden characters revealed; Allow is never offered for a request flagged as
// dangerous, neither on the notification nor when its button comes back.
import { describe, expect, it } from 'vitest';
import type { PendingSummary } from '../../../shared/domain';
import { notificationText } from './notification-text';
import { optionForAction } from './use-browser-notifications';

const summary = (change: Partial<PendingSummary> = {}): PendingSummary =>
  ({
    requestId: 'r1',
    sessionId: 's1',
    agentId: 'claude',
    agentName: 'Claude Code',
    cwd: '/p',
    kind: 'execute',
    title: 'npm test',
    command: 'npm test',
    paths: [],
    pathCount: 0,
    warnings: [],
    policy: 'first_responder',
    issuedAt: 0,
    expiresAt: 1,
    tally: null,
    options: [
      { optionId: 'once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
    truncated: false,
    ...change,
  }) as PendingSummary;

describe('a notification of a waiting request', () => {
  it('says the command first and the title as the agent’s words', () => {
    const text = notificationText(summary({ title: 'Harmless\u202e\nSecond line' }));
    expect(text.title).toBe('Claude Code asks to run a command');
    expect(text.body.split('\n')).toEqual([
      '$ npm test',
      'The agent calls it: “Harmless⟨U+202E⟩ ⏎ Second line”',
    ]);
    expect(text.actions.map((a) => a.action)).toEqual(['allow', 'deny']);
  });

  it('says what the command’s preview found, after the command, its line breaks revealed', () => {
    const text = notificationText(summary({ effects: 'changes 3 files, deletes 1\nAllow me' }));
    expect(text.body.split('\n')).toEqual([
      '$ npm test',
      'Preview: changes 3 files, deletes 1 ⏎ Allow me',
      'The agent calls it: “npm test”',
    ]);
  });

  it('names the file an edit touches, and how many more', () => {
    const text = notificationText(
      summary({ kind: 'edit', command: null, paths: ['/p/a.ts', '/p/b.ts'], pathCount: 2 }),
    );
    expect(text.title).toBe('Claude Code asks to edit files');
    expect(text.body.split('\n')[0]).toBe('/p/a.ts (+1 more)');
  });

  it('offers only Deny when danger is flagged, and refuses an Allow that comes back anyway', () => {
    const risky = summary({ warnings: [{ code: 'pipe_to_shell', severity: 'danger' }] } as never);
    expect(notificationText(risky).actions.map((a) => a.action)).toEqual(['deny']);
    expect(notificationText(risky).body).toContain('Danger: 1 warning');
    expect(optionForAction(risky, 'allow')).toBeUndefined();
    expect(optionForAction(risky, 'deny')?.optionId).toBe('no');
    expect(optionForAction(summary(), 'allow')?.optionId).toBe('once');
  });
});
