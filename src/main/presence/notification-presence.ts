// Drives a platform notifier from the core: events in (batched), planner commands out, and the
// person's button presses back in as mediator votes from the "notification" surface. No Electron:
// the Linux notifier runs under plain Node, and so does this.
import type { GatehouseEvent } from '../../shared/contract';
import type { SessionInfo } from '../../shared/domain';
import { type Handlers, type EventBus, type PendingQueue, logger } from '../core';
import {
  DESKTOP_CLIENT_ID,
  desktopCaller,
  presenceAllow,
  presenceVote,
  type PresenceVoteResult,
} from './callers';
import {
  NotificationPlanner,
  type NotificationCommand,
  type NotificationIntent,
  type NotificationModel,
} from './notification-plan';

const log = logger('notifications');

/** Why a notification left the screen without Gatehouse withdrawing it. */
export type CloseReason = 'expired' | 'dismissed' | 'other';

export interface NotifierListener {
  /** An action button (its id) or the body ('default') was pressed. */
  activated(key: string, action: string): void;
  /** Words were sent from the reply field of the notification's reply action (its id). */
  replied(key: string, action: string, text: string): void;
  /** The notification is gone (dismissed, expired) — not reported for withdraw() calls. */
  closed(key: string, reason: CloseReason): void;
}

/** A platform's native notifications: Linux D-Bus, macOS and Windows through Electron. */
export interface Notifier {
  /** Whether action buttons are shown at all (else only the body click works). */
  readonly supportsActions: boolean;
  /** Show, or replace the notification with the same key; `silent` replaces without an alert. */
  show(notification: NotificationModel, options: { silent: boolean }): Promise<void> | void;
  withdraw(key: string): Promise<void> | void;
  setListener(listener: NotifierListener): void;
  /** Releases the platform connection (after withdrawing what is shown). */
  close(): Promise<void> | void;
}

export interface NotificationPresenceOptions {
  core: {
    bus: EventBus;
    handlers: Handlers;
    /** Read once, at start: what is already waiting. */
    pipeline: { pending: Pick<PendingQueue, 'list'> };
    /** Open sessions, to say which requests come from an agent without a sandbox. */
    sessions?: { list(): SessionInfo[] };
  };
  notifier: Notifier;
  clientId?: string;
  /** Events within this window are one batch (many requests at once → one group). Default 150 ms. */
  batchWindowMs?: number;
  maxIndividual?: number;
  /** The body (or "Open approvals") was clicked: open the dialog, on this request if given. */
  onOpen?: (requestId: string | null) => void;
  /** Every vote sent from a notification, with its outcome (for logs and tests). */
  onVote?: (requestId: string, result: PresenceVoteResult) => void;
  onPausedChange?: (paused: boolean) => void;
  log?: (message: string, error?: unknown) => void;
}

export class NotificationPresence {
  private readonly planner: NotificationPlanner;
  private readonly batchWindowMs: number;
  private readonly log: (message: string, error?: unknown) => void;
  private batch: GatehouseEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Platform calls run one after another: a withdraw must never overtake its show. */
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private closed = false;

  constructor(private readonly options: NotificationPresenceOptions) {
    const sessions = options.core.sessions;
    this.planner = new NotificationPlanner({
      maxIndividual: options.maxIndividual,
      unsandboxed: (sessionId) =>
        sessions?.list().find((s) => s.sessionId === sessionId)?.sandbox.profile === 'off',
    });
    this.batchWindowMs = options.batchWindowMs ?? 150;
    this.log =
      options.log ??
      ((message, error) => log.warn(message, ...(error === undefined ? [] : [error])));
    options.notifier.setListener({
      activated: (key, action) => void this.activate(key, action),
      replied: (key, action, text) => void this.activate(key, action, text),
      closed: (key) => this.planner.closed(key),
    });
  }

  /** Starts listening; requests already pending are shown as one batch. */
  start(): this {
    if (this.unsubscribe || this.closed) return this;
    this.unsubscribe = this.options.core.bus.subscribe((event) => this.onEvent(event));
    const pending = this.options.core.pipeline.pending.list();
    if (pending.length > 0)
      this.apply(
        this.planner.plan(pending.map((approval) => ({ type: 'permission_requested', approval }))),
      );
    return this;
  }

  get paused(): boolean {
    return this.planner.paused;
  }

  setPaused(paused: boolean): void {
    this.flush();
    const commands = this.planner.setPaused(paused);
    this.options.onPausedChange?.(paused);
    this.apply(commands);
  }

  /** Keys on screen as far as Gatehouse knows. */
  visible(): string[] {
    return this.planner.visible();
  }

  /** Resolves when every platform call issued so far has completed. */
  async idle(): Promise<void> {
    this.flush();
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  /**
   * An activation from the platform. Votes go through dispatch with the notification caller; a
   * body click opens the dialog. `text`: what was typed into the reply field, which goes with
   * the reply's reject only. Returns what was done (null: a stale or unknown notification).
   */
  async activate(key: string, action: string, text?: string): Promise<NotificationIntent | null> {
    this.flush();
    const intent = this.planner.intent(key, action, text);
    if (!intent) return null;
    // A pressed notification is done: Gatehouse takes it off the screen itself (some servers, dunst
    // among them, leave it up after an action). The request stays in tray and dialog until decided.
    this.planner.closed(key);
    this.enqueue(() => this.options.notifier.withdraw(key));
    if (intent.type === 'open') {
      this.options.onOpen?.(intent.requestId);
      return intent;
    }
    const caller = desktopCaller('notification', this.options.clientId ?? DESKTOP_CLIENT_ID);
    if (intent.type === 'allow_sandbox_target') {
      const result = await presenceAllow(this.options.core.handlers, caller, intent.allowance);
      if (result.ok) this.log(`allowed for ${intent.allowance.agentId}: ${result.entry}`);
      else this.log(`allowing failed: ${result.error.name} ${result.error.message}`);
      return intent;
    }
    const result = await presenceVote(
      this.options.core.handlers,
      caller,
      intent.requestId,
      intent.vote,
    );
    this.options.onVote?.(intent.requestId, result);
    if (!result.ok)
      this.log(`vote on ${intent.requestId} failed: ${result.error.name} ${result.error.message}`);
    else if (result.outcome.kind !== 'resolved' && result.outcome.kind !== 'recorded') {
      this.log(`vote on ${intent.requestId}: ${JSON.stringify(result.outcome)}`);
    }
    return intent;
  }

  /** Stops listening, withdraws everything still shown and releases the notifier. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const key of this.planner.visible()) {
      this.planner.closed(key);
      this.enqueue(() => this.options.notifier.withdraw(key));
    }
    await this.idle();
    await this.options.notifier.close();
  }

  private onEvent(event: GatehouseEvent): void {
    if (!this.planner.concerns(event)) return;
    this.batch.push(event);
    // A decision is withdrawn at once; new requests wait a moment for their siblings.
    if (event.type !== 'permission_requested' || this.batchWindowMs === 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.batchWindowMs);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.batch.length === 0) return;
    const events = this.batch;
    this.batch = [];
    this.apply(this.planner.plan(events));
  }

  private apply(commands: NotificationCommand[]): void {
    const { notifier } = this.options;
    for (const command of commands) {
      if (command.type === 'withdraw') this.enqueue(() => notifier.withdraw(command.key));
      else
        this.enqueue(() =>
          notifier.show(command.notification, { silent: command.type === 'update' }),
        );
    }
  }

  private enqueue(task: () => Promise<void> | void): void {
    this.queue = this.queue
      .then(task)
      .catch((error: unknown) => this.log('the platform refused a notification call', error));
  }
}
