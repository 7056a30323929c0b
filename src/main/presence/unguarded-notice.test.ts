import { describe, expect, it } from 'vitest';
import type { GatehouseEvent } from '../../shared/contract';
import type { SessionInfo } from '../../shared/domain';
import { NotificationPlanner } from './notification-plan';
import { unguardedKey } from './unguarded-notice';

const session = (extra: Partial<SessionInfo> = {}): SessionInfo => ({
  sessionId: 's1',
  agentId: 'claude',
  cwd: '/work',
  createdAt: 0,
  state: 'idle',
  mode: 'default',
  sandbox: { profile: 'off', writable: [], network: 'all' },
  ...extra,
});
const state = (extra: Partial<SessionInfo> = {}): GatehouseEvent => ({
  type: 'session_state',
  session: session(extra),
});
const REASON = 'the agent refused to leave mode "bypassPermissions", which does not ask';

describe('the unguarded session notification', () => {
  it('is shown once, critical, saying why, and opens Gatehouse', () => {
    const planner = new NotificationPlanner();
    const [command, ...rest] = planner.plan([state({ unguarded: REASON })]);
    expect(rest).toEqual([]);
    expect(command).toMatchObject({
      type: 'show',
      notification: {
        key: unguardedKey('s1'),
        title: 'claude is not guarded',
        urgency: 'critical',
      },
    });
    expect(command?.type === 'show' && command.notification.body).toContain('bypassPermissions');
    expect(planner.plan([state({ unguarded: REASON, state: 'prompting' })])).toEqual([]);
    expect(planner.intent(unguardedKey('s1'), 'default')).toEqual({
      type: 'open',
      requestId: null,
    });
  });

  it('is withdrawn when the agent asks again or the session ends', () => {
    const planner = new NotificationPlanner();
    planner.plan([state({ unguarded: REASON })]);
    expect(planner.plan([state()])).toEqual([{ type: 'withdraw', key: unguardedKey('s1') }]);
    planner.plan([state({ unguarded: REASON })]);
    expect(planner.plan([state({ unguarded: REASON, state: 'closed' })])).toEqual([
      { type: 'withdraw', key: unguardedKey('s1') },
    ]);
  });

  it('concerns the presence only while it says something', () => {
    const planner = new NotificationPlanner();
    expect(planner.concerns(state())).toBe(false);
    expect(planner.concerns(state({ unguarded: REASON }))).toBe(true);
    planner.plan([state({ unguarded: REASON })]);
    expect(planner.concerns(state())).toBe(true);
  });

  it('is not shown while notifications are paused', () => {
    const planner = new NotificationPlanner();
    planner.setPaused(true);
    expect(planner.plan([state({ unguarded: REASON })])).toEqual([]);
  });
});
