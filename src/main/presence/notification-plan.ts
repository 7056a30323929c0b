// What the native notifications show, decided from the event stream alone (no OS, no Electron):
// one notification per request that needs a person, grouped when many arrive at once, withdrawn as
// soon as the request is decided elsewhere. The platform notifiers only render these commands.
import { REJECT_MESSAGE_MAX, type GatehouseEvent, type GrantChoice } from '../../shared/contract';
import type { PendingApproval } from '../../shared/domain';
import { previewIsUrgent, previewSummary } from '../../shared/preview';
import {
  LIMITS,
  agentName,
  agentTitle,
  clip,
  hasDanger,
  kindVerb,
  rawSubject,
  safeLine,
  shortSubject,
} from './text';
import { sandboxOffer, type SandboxAllowance } from './sandbox-offer';
import { hookNotice } from './hook-notice';
import { unguardedNotice } from './unguarded-notice';

/** A notification tied to no request that stands while its state lasts (null: withdraw it). */
function standingNotice(event: GatehouseEvent) {
  const unguarded = unguardedNotice(event);
  if (unguarded) {
    const { key, shown } = unguarded;
    return { key, shown: shown && { ...shown, urgency: 'critical' as const } };
  }
  return hookNotice(event);
}

export type NotificationActionId =
  'allow_once' | 'allow_always' | 'deny' | 'deny_reason' | 'open' | 'allow_target';

/** What pressing an action sends to the mediator (the vote command's input, minus the request id). */
export type ActionVote =
  { optionId: string; grant?: GrantChoice; message?: string } | { outcome: 'cancelled' };

export interface NotificationAction {
  id: NotificationActionId;
  /** Our own words, never the agent's option names (those are untrusted text). */
  label: string;
  vote?: ActionVote;
}

export interface NotificationModel {
  /** Stable identity of the notification: the request id, or GROUP_KEY. */
  key: string;
  /** The requests it stands for (one for a single request). */
  requestIds: string[];
  title: string;
  body: string;
  /** In display order; clicking the body (the "default" action) always opens the dialog. */
  actions: NotificationAction[];
  /**
   * A reject the person can type words for, where the platform shows a reply field (a server
   * with `inline-reply` on Linux, macOS); elsewhere it is not shown and Deny stays as it is.
   */
  reply?: NotificationReply;
  urgency: 'normal' | 'critical';
}

export interface NotificationReply {
  id: 'deny_reason';
  /** Our own words, like every label. */
  label: string;
  placeholder: string;
  /** The reject option the typed words go with. */
  optionId: string;
}

export type NotificationCommand =
  /** Show, or replace with an alert if the key is already shown. */
  | { type: 'show'; notification: NotificationModel }
  /** Replace quietly (the group shrank); the person was already alerted. */
  | { type: 'update'; notification: NotificationModel }
  | { type: 'withdraw'; key: string };

/** What an activation of a notification means. */
export type NotificationIntent =
  | { type: 'vote'; requestId: string; vote: ActionVote; action: NotificationActionId }
  | { type: 'open'; requestId: string | null }
  | { type: 'allow_sandbox_target'; allowance: SandboxAllowance };

export const GROUP_KEY = 'gatehouse-group';

export interface NotificationPlanOptions {
  /** Individual notifications on screen at once; more go into one group notification. Default 3. */
  maxIndividual?: number;
  /** Whether a session's agent runs without a sandbox (its requests say so). */
  unsandboxed?: (sessionId: string) => boolean;
}

/** The three actions of a request, by option kind (option ids differ per agent). */
export function requestActions(approval: PendingApproval): NotificationAction[] {
  const byKind = (kind: string) => approval.options.find((o) => o.kind === kind);
  const once = byKind('allow_once');
  const always = byKind('allow_always');
  const reject = byKind('reject_once') ?? byKind('reject_always');
  const actions: NotificationAction[] = [];
  if (once)
    actions.push({ id: 'allow_once', label: 'Allow once', vote: { optionId: once.optionId } });
  // "Always" from a few words in a bubble: the narrowest grant (this session), and never when the
  // request carries a danger warning — that needs the dialog.
  if (always && !hasDanger(approval)) {
    actions.push({
      id: 'allow_always',
      label: 'Always',
      vote: { optionId: always.optionId, grant: { scope: 'session' } },
    });
  }
  // An agent that offers no reject option is refused by a cancel vote (the mediator answers no).
  actions.push({
    id: 'deny',
    label: 'Deny',
    vote: reject ? { optionId: reject.optionId } : { outcome: 'cancelled' },
  });
  return actions;
}

/**
 * "Reject with a reason…": only with a reject option the agent offered (a cancel carries no
 * words).
 */
export function requestReply(approval: PendingApproval): NotificationReply | undefined {
  const reject =
    approval.options.find((o) => o.kind === 'reject_once') ??
    approval.options.find((o) => o.kind === 'reject_always');
  if (!reject) return undefined;
  return {
    id: 'deny_reason',
    label: 'Reject with a reason…',
    placeholder: 'Tell the agent what to do instead',
    optionId: reject.optionId,
  };
}

/** The words of a reply as a vote carries them: trimmed, bounded; none when blank. */
export function replyVote(reply: NotificationReply, text: string): ActionVote {
  const message = text.trim().slice(0, REJECT_MESSAGE_MAX);
  return message ? { optionId: reply.optionId, message } : { optionId: reply.optionId };
}

/** Critical when a warning is a danger or the preview found what raises urgency. */
function urgencyOf(approval: PendingApproval): NotificationModel['urgency'] {
  const urgent = hasDanger(approval) || (approval.preview && previewIsUrgent(approval.preview));
  return urgent ? 'critical' : 'normal';
}

/**
 * The notification of one request: agent and kind, the raw subject, what its preview found, the
 * agent's title, the worst warning. Short of room, the agent's own title goes first.
 */
export function requestNotification(
  approval: PendingApproval,
  unsandboxed = false,
): NotificationModel {
  // A question is answered in its dialog (a form, or a link the person opens): it only opens it.
  const { question } = approval;
  if (question)
    return {
      key: approval.requestId,
      requestIds: [approval.requestId],
      title: clip(`${agentName(approval)} asks: ${safeLine(question.message)}`, LIMITS.title),
      body:
        question.mode === 'url'
          ? safeLine(`A link to ${question.host}: open Gatehouse to answer`)
          : 'A question: open Gatehouse to answer',
      actions: [{ id: 'open', label: 'Open approvals' }],
      urgency: 'normal',
    };
  const lines: string[] = [];
  const subject = rawSubject(approval);
  if (subject) lines.push(subject);
  const effects = approval.preview ? previewSummary(approval.preview) : '';
  if (effects) lines.push(safeLine(`Preview: ${effects}`));
  const room = unsandboxed ? LIMITS.bodyLines - 1 : LIMITS.bodyLines;
  const title = agentTitle(approval);
  // The agent's title only when it adds something (Claude's title *is* the command).
  const titleAdds =
    !subject || !subject.endsWith(safeLine(approval.toolCall.title, LIMITS.line - 2));
  if (titleAdds && (!effects || approval.warnings.length === 0 || lines.length + 2 <= room))
    lines.push(title);
  const warnings = [...approval.warnings].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === 'danger' ? -1 : 1,
  );
  const first = warnings[0];
  if (first) {
    const more = warnings.length > 1 ? ` (+${warnings.length - 1} more)` : '';
    lines.push(`⚠ ${safeLine(first.message, LIMITS.line - 2 - more.length)}${more}`);
  }
  const reply = requestReply(approval);
  return {
    key: approval.requestId,
    requestIds: [approval.requestId],
    title: clip(`${agentName(approval)} wants to ${kindVerb(approval)}`, LIMITS.title),
    body: [...lines.slice(0, room), ...(unsandboxed ? ['⚠ Not sandboxed'] : [])].join('\n'),
    actions: requestActions(approval),
    ...(reply ? { reply } : {}),
    urgency: urgencyOf(approval),
  };
}

/** One notification for many requests: a count and a few lines; it opens the dialog. */
export function groupNotification(approvals: readonly PendingApproval[]): NotificationModel {
  const agents = new Set(approvals.map((a) => a.agentId));
  const rows = approvals
    .slice(0, LIMITS.bodyLines - 1)
    .map((a) => clip(`${agentName(a, 24)}: ${shortSubject(a, LIMITS.line - 26)}`, LIMITS.line));
  const rest = approvals.length - rows.length;
  if (rest > 0) rows.push(`+${rest} more`);
  const from =
    agents.size > 1 ? ` from ${agents.size} agents` : ` from ${agentName(approvals[0]!)}`;
  return {
    key: GROUP_KEY,
    requestIds: approvals.map((a) => a.requestId),
    title: clip(`${approvals.length} permission requests${from}`, LIMITS.title),
    body: rows.join('\n'),
    actions: [{ id: 'open', label: 'Open approvals' }],
    urgency: approvals.some((a) => urgencyOf(a) === 'critical') ? 'critical' : 'normal',
  };
}

/**
 * The notification state machine. Feed it the core's events in batches (what arrived within a
 * short window); it answers with the show / update / withdraw commands that bring the screen in
 * line. Rules:
 * - a request that needs a person gets its own notification while fewer than `maxIndividual` are
 *   on screen; a batch with more new requests than that goes into one group notification, and so
 *   does any request arriving while the individual slots are full;
 * - a decided request's notification is withdrawn (the group is updated, or withdrawn when empty);
 * - while paused nothing is shown; on resume what is still pending is shown as one batch;
 * - a notification the person dismissed is not shown again (tray and dialog still carry it).
 */
export class NotificationPlanner {
  private readonly maxIndividual: number;
  private readonly unsandboxed: (sessionId: string) => boolean;
  private readonly individual = new Map<string, NotificationModel>();
  /**
   * Notifications tied to no request, by key: offers to allow what an agent's sandbox keeps
   * refusing (with what they would allow), unguarded sessions and lost hooks (null).
   */
  private readonly notices = new Map<string, SandboxAllowance | null>();
  private readonly grouped = new Map<string, PendingApproval>();
  /** Arrived while paused: shown on resume if still pending. */
  private readonly held = new Map<string, PendingApproval>();
  private groupShown = false;
  private pausedState = false;

  constructor(options: NotificationPlanOptions = {}) {
    this.maxIndividual = Math.max(1, options.maxIndividual ?? 3);
    this.unsandboxed = options.unsandboxed ?? (() => false);
  }

  get paused(): boolean {
    return this.pausedState;
  }

  /** Keys of the notifications on screen (as far as Gatehouse knows). */
  visible(): string[] {
    return [
      ...this.individual.keys(),
      ...this.notices.keys(),
      ...(this.groupShown ? [GROUP_KEY] : []),
    ];
  }

  /** Whether an event can change what is shown (the rest need not reach `plan`). */
  concerns(event: GatehouseEvent): boolean {
    if (
      event.type === 'permission_requested' ||
      event.type === 'permission_resolved' ||
      event.type === 'permission_previewed'
    )
      return true;
    if (event.type === 'sandbox_violation') return event.repeated === true;
    const notice = standingNotice(event);
    return notice !== null && (notice.shown !== null || this.notices.has(notice.key));
  }

  plan(events: readonly GatehouseEvent[]): NotificationCommand[] {
    const fresh = new Map<string, PendingApproval>();
    const commands: NotificationCommand[] = [];
    let groupShrank = false;
    for (const event of events) {
      if (event.type === 'permission_requested') {
        const id = event.approval.requestId;
        if (!this.individual.has(id) && !this.grouped.has(id) && !this.held.has(id))
          fresh.set(id, event.approval);
      } else if (event.type === 'permission_resolved') {
        const id = event.requestId;
        if (fresh.delete(id) || this.held.delete(id)) continue;
        if (this.individual.delete(id)) commands.push({ type: 'withdraw', key: id });
        else if (this.grouped.delete(id)) groupShrank = true;
      } else if (event.type === 'permission_previewed') {
        commands.push(...this.previewed(event.approval, fresh));
      } else {
        commands.push(...this.offer(event), ...this.standing(event));
      }
    }
    commands.push(...this.admit([...fresh.values()], groupShrank));
    return commands;
  }

  /** Do-not-disturb. Resuming shows what is still pending and was never shown, as one batch. */
  setPaused(paused: boolean): NotificationCommand[] {
    if (paused === this.pausedState) return [];
    this.pausedState = paused;
    if (paused) return [];
    const held = [...this.held.values()];
    this.held.clear();
    return this.admit(held, false);
  }

  /** The notification is gone from the screen without a decision (dismissed, expired, replaced). */
  closed(key: string): void {
    if (key === GROUP_KEY) {
      this.groupShown = false;
      this.grouped.clear();
      return;
    }
    this.individual.delete(key);
    this.notices.delete(key);
  }

  /**
   * What an activation means; null for a notification Gatehouse no longer shows. `text`: the words
   * typed into the notification's reply field (its reply action only).
   */
  intent(key: string, action: string, text?: string): NotificationIntent | null {
    if (key === GROUP_KEY) return this.groupShown ? { type: 'open', requestId: null } : null;
    if (this.notices.has(key)) {
      const allowance = this.notices.get(key);
      return action === 'allow_target' && allowance
        ? { type: 'allow_sandbox_target', allowance }
        : { type: 'open', requestId: null };
    }
    const model = this.individual.get(key);
    if (!model) return null;
    if (text !== undefined) {
      const reply = model.reply;
      if (!reply || action !== reply.id) return null;
      return { type: 'vote', requestId: key, vote: replyVote(reply, text), action: reply.id };
    }
    const chosen = model.actions.find((a) => a.id === action);
    if (chosen?.vote) return { type: 'vote', requestId: key, vote: chosen.vote, action: chosen.id };
    return { type: 'open', requestId: key };
  }

  /**
   * A request's preview finished: its notification is replaced where it stands, quietly unless the
   * preview made it urgent (then it alerts again, and loses "Always"). One not on screen yet will
   * be shown with it; one dismissed stays dismissed.
   */
  private previewed(
    approval: PendingApproval,
    fresh: Map<string, PendingApproval>,
  ): NotificationCommand[] {
    const id = approval.requestId;
    for (const waiting of [fresh, this.held, this.grouped]) {
      if (waiting.has(id)) {
        waiting.set(id, approval);
        return [];
      }
    }
    const before = this.individual.get(id);
    if (!before) return [];
    const notification = requestNotification(approval, this.unsandboxed(approval.sessionId));
    this.individual.set(id, notification);
    const alert = !this.pausedState && notification.urgency !== before.urgency;
    return [{ type: alert ? 'show' : 'update', notification }];
  }

  /** A repeated sandbox refusal, shown once while on screen; not while paused. */
  private offer(event: GatehouseEvent): NotificationCommand[] {
    const offer = sandboxOffer(event);
    if (!offer || this.pausedState || this.notices.has(offer.key)) return [];
    this.notices.set(offer.key, offer.allowance);
    const actions: NotificationAction[] = offer.allowance
      ? [{ id: 'allow_target', label: 'Allow for this agent' }]
      : [];
    return [
      {
        type: 'show',
        notification: {
          key: offer.key,
          requestIds: [],
          title: offer.title,
          body: offer.body,
          actions,
          urgency: 'normal',
        },
      },
    ];
  }

  /**
   * An unguarded session (withdrawn when it asks again or ends), a lost or weakened hook (withdrawn
   * when it is back): shown once, not while paused; a hook that changes again is shown anew.
   */
  private standing(event: GatehouseEvent): NotificationCommand[] {
    const notice = standingNotice(event);
    if (!notice) return [];
    const { key, shown } = notice;
    if (!shown) return this.notices.delete(key) ? [{ type: 'withdraw', key }] : [];
    const again = event.type === 'hook_changed';
    if (this.pausedState || (this.notices.has(key) && !again)) return [];
    this.notices.set(key, null);
    const notification = { key, requestIds: [], ...shown, actions: [] };
    return [{ type: 'show', notification }];
  }

  private admit(fresh: PendingApproval[], groupShrank: boolean): NotificationCommand[] {
    const commands: NotificationCommand[] = [];
    if (this.pausedState) {
      for (const approval of fresh) this.held.set(approval.requestId, approval);
    } else {
      const burst = fresh.length > this.maxIndividual;
      for (const approval of fresh) {
        if (!burst && this.individual.size < this.maxIndividual) {
          const model = requestNotification(approval, this.unsandboxed(approval.sessionId));
          this.individual.set(approval.requestId, model);
          commands.push({ type: 'show', notification: model });
        } else {
          this.grouped.set(approval.requestId, approval);
        }
      }
    }
    const grew = !this.pausedState && fresh.some((a) => this.grouped.has(a.requestId));
    if (this.grouped.size === 0) {
      if (this.groupShown) commands.push({ type: 'withdraw', key: GROUP_KEY });
      this.groupShown = false;
    } else if (grew) {
      commands.push({ type: 'show', notification: groupNotification([...this.grouped.values()]) });
      this.groupShown = true;
    } else if (groupShrank && this.groupShown) {
      commands.push({
        type: 'update',
        notification: groupNotification([...this.grouped.values()]),
      });
    }
    return commands;
  }
}
