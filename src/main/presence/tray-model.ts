// What the tray shows, computed from the pending list (no OS, no Electron): the count, the icon
// variant, and a menu of the pending requests with quick decisions. The desktop adapter renders it.
import type { PendingApproval } from '../../shared/domain';
import { LIMITS, agentName, clip, hasDanger, shortSubject } from './text';

export type TrayView = 'approvals' | 'history' | 'settings';

export type TrayAction =
  | { type: 'vote'; requestId: string; optionId: string; decision: 'allow_once' | 'deny' }
  | { type: 'cancel'; requestId: string }
  | { type: 'open'; view: TrayView; requestId?: string }
  | { type: 'toggle-pause' }
  | { type: 'quit' };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'label'; label: string }
  | { type: 'action'; label: string; action: TrayAction; enabled?: boolean }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; items: TrayMenuItem[] };

export interface TrayModel {
  count: number;
  /** idle: nothing waiting; pending: a badge dot (Linux icon variant, Windows overlay). */
  icon: 'idle' | 'pending';
  /** Next to the icon on macOS: the count, or nothing. */
  title: string;
  tooltip: string;
  menu: TrayMenuItem[];
}

export interface TrayState {
  paused: boolean;
}

export interface TrayModelOptions {
  /** Requests listed in the menu; the rest are reached through "Open approvals". Default 8. */
  maxItems?: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function requestItem(approval: PendingApproval): TrayMenuItem {
  // A question is accepted with its values, in the dialog; from the menu it can only be declined.
  const once = approval.question
    ? undefined
    : approval.options.find((o) => o.kind === 'allow_once');
  const reject =
    approval.options.find((o) => o.kind === 'reject_once') ??
    approval.options.find((o) => o.kind === 'reject_always');
  const items: TrayMenuItem[] = [];
  if (once) {
    items.push({
      type: 'action',
      label: 'Allow once',
      action: {
        type: 'vote',
        requestId: approval.requestId,
        optionId: once.optionId,
        decision: 'allow_once',
      },
    });
  }
  items.push({
    type: 'action',
    label: approval.question ? 'Decline' : 'Deny',
    action: reject
      ? { type: 'vote', requestId: approval.requestId, optionId: reject.optionId, decision: 'deny' }
      : { type: 'cancel', requestId: approval.requestId },
  });
  items.push({ type: 'separator' });
  items.push({
    type: 'action',
    label: 'Open in dialog…',
    action: { type: 'open', view: 'approvals', requestId: approval.requestId },
  });
  const warn = hasDanger(approval) ? '⚠ ' : '';
  const name = agentName(approval, 20);
  const label = clip(
    `${warn}${name}: ${shortSubject(approval, LIMITS.menuLabel - name.length - 2 - warn.length)}`,
    LIMITS.menuLabel,
  );
  return { type: 'submenu', label, items };
}

/** The tray for this pending list (oldest first, as the pipeline keeps it). */
export function trayModel(
  pending: readonly PendingApproval[],
  state: TrayState,
  options: TrayModelOptions = {},
): TrayModel {
  const maxItems = Math.max(0, options.maxItems ?? 8);
  const count = pending.length;
  const menu: TrayMenuItem[] = [];
  menu.push({
    type: 'label',
    label: count === 0 ? 'Nothing is waiting' : `${plural(count, 'request', 'requests')} waiting`,
  });
  if (count > 0) {
    for (const approval of pending.slice(0, maxItems)) menu.push(requestItem(approval));
    if (count > maxItems) {
      menu.push({
        type: 'action',
        label: `${count - maxItems} more…`,
        action: { type: 'open', view: 'approvals' },
      });
    }
  }
  menu.push({ type: 'separator' });
  menu.push({
    type: 'action',
    label: 'Open approvals',
    action: { type: 'open', view: 'approvals' },
  });
  menu.push({ type: 'action', label: 'History', action: { type: 'open', view: 'history' } });
  menu.push({
    type: 'checkbox',
    label: 'Pause notifications',
    checked: state.paused,
    action: { type: 'toggle-pause' },
  });
  menu.push({ type: 'action', label: 'Settings', action: { type: 'open', view: 'settings' } });
  menu.push({ type: 'separator' });
  menu.push({ type: 'action', label: 'Quit', action: { type: 'quit' } });

  const waiting =
    count === 0 ? 'nothing waiting' : `${plural(count, 'request', 'requests')} waiting`;
  return {
    count,
    icon: count > 0 ? 'pending' : 'idle',
    title: count > 0 ? String(count) : '',
    tooltip: `Gatehouse — ${waiting}${state.paused ? ' (notifications paused)' : ''}`,
    menu,
  };
}
