import { describe, expect, it } from 'vitest';
import type { GatehouseEvent } from '../../shared/contract';
import type { HookChange, HookStatus } from '../../shared/hooked-clis';
import { hookNoticeKey } from './hook-notice';
import { NotificationPlanner } from './notification-plan';

const FILE = '/home/p/.claude/settings.json';
const changed = (
  change: HookChange,
  status: HookStatus | null,
  changes: string[] = [],
): GatehouseEvent => ({
  type: 'hook_changed',
  cli: 'claude-code',
  scope: 'user',
  file: FILE,
  change,
  watch: status === null ? null : { status, since: 1, changes },
});
const KEY = hookNoticeKey('claude-code', FILE);

describe('the notification of a lost or weakened hook', () => {
  it('a lost hook is shown, critical, with what changed, the file and how to put it back', () => {
    const planner = new NotificationPlanner();
    const [command, ...rest] = planner.plan([
      changed('lost', 'lost', ["Gatehouse's hook was removed", 'and more']),
    ]);
    expect(rest).toEqual([]);
    expect(command).toMatchObject({
      type: 'show',
      notification: {
        key: KEY,
        title: 'Claude Code is no longer gated by Gatehouse',
        urgency: 'critical',
        actions: [],
      },
    });
    const body = command?.type === 'show' ? command.notification.body : '';
    expect(body).toContain("Gatehouse's hook was removed (+1 more)");
    expect(body).toContain(FILE);
    expect(body).toContain('gatehouse hook install');
    expect(planner.intent(KEY, 'default')).toEqual({ type: 'open', requestId: null });
  });

  it('a further change is shown again; the hook back withdraws it', () => {
    const planner = new NotificationPlanner();
    planner.plan([changed('weakened', 'weakened', ['a Stop hook was added: x'])]);
    const [again] = planner.plan([changed('lost', 'lost', ['the settings file was deleted'])]);
    expect(again).toMatchObject({ type: 'show', notification: { key: KEY, urgency: 'critical' } });
    expect(planner.plan([changed('restored', 'intact')])).toEqual([{ type: 'withdraw', key: KEY }]);
    expect(planner.concerns(changed('installed', 'intact'))).toBe(false);
  });

  it('an uninstall is said once, quietly, in place of a loss shown; installing again withdraws it', () => {
    const planner = new NotificationPlanner();
    planner.plan([changed('lost', 'lost', ['x'])]);
    const [said] = planner.plan([changed('uninstalled', null)]);
    expect(said).toMatchObject({
      type: 'show',
      notification: {
        key: KEY,
        title: "Claude Code's hook is no longer watched",
        urgency: 'normal',
      },
    });
    expect(planner.plan([changed('installed', 'intact')])).toEqual([
      { type: 'withdraw', key: KEY },
    ]);
  });

  it('a weakened hook is a normal notification; nothing is shown while paused', () => {
    const planner = new NotificationPlanner();
    const [shown] = planner.plan([changed('weakened', 'weakened', ['a Stop hook was added: x'])]);
    expect(shown).toMatchObject({
      notification: { title: "Claude Code's hook was weakened", urgency: 'normal' },
    });
    const paused = new NotificationPlanner();
    paused.setPaused(true);
    expect(paused.plan([changed('lost', 'lost', ['x'])])).toEqual([]);
  });
});
