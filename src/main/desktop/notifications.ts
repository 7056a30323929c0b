// The platform notifiers behind src/main/presence's Notifier interface:
// - Linux: the freedesktop service over D-Bus (src/main/presence/freedesktop-notifier.ts), with
//   Electron's plain notifications as the fallback when there is no bus or no service;
// - macOS: Electron notifications with `actions` (shown when the person allows alerts);
// - Windows: toasts built from XML whose buttons are `gatehouse://notification/<token>` protocol
//   activations, which reach this (single) instance as a second-instance deep link.
import { Notification } from 'electron';
import {
  ActivationTokens,
  FreedesktopNotifier,
  toastXml,
  type NotificationModel,
  type Notifier,
  type NotifierListener,
} from '../presence';
import { activationLink } from './deep-link';

/**
 * What Electron's notifiers share: one notification on screen per key (a new one replaces the old),
 * and a close by the person reported once.
 */
abstract class ShownNotifications implements Notifier {
  abstract readonly supportsActions: boolean;
  protected listener: NotifierListener | null = null;
  private readonly shown = new Map<string, Notification>();

  setListener(listener: NotifierListener): void {
    this.listener = listener;
  }

  show(model: NotificationModel, options: { silent: boolean }): void {
    this.drop(model.key);
    const notification = this.build(model, options);
    notification.on('close', () => {
      if (this.shown.get(model.key) !== notification) return;
      this.shown.delete(model.key);
      this.forget(model.key);
      this.listener?.closed(model.key, 'dismissed');
    });
    // Kept referenced: a collected Notification loses its event handlers.
    this.shown.set(model.key, notification);
    notification.show();
  }

  withdraw(key: string): void {
    this.drop(key);
  }

  close(): void {
    for (const key of [...this.shown.keys()]) this.drop(key);
  }

  /** The notification of a model, with its activation handlers attached; not shown yet. */
  protected abstract build(model: NotificationModel, options: { silent: boolean }): Notification;

  /** Lets go of what else the notifier keeps for a key once its notification is gone. */
  protected forget(_key: string): void {}

  private drop(key: string): void {
    this.forget(key);
    const old = this.shown.get(key);
    if (!old) return;
    this.shown.delete(key);
    old.close();
  }
}

/** Electron's Notification: macOS actions and reply field; elsewhere the body click only. */
export class ElectronNotifier extends ShownNotifications {
  readonly supportsActions = process.platform === 'darwin';

  constructor(private readonly icon?: string) {
    super();
  }

  protected build(model: NotificationModel, options: { silent: boolean }): Notification {
    const notification = new Notification({
      title: model.title,
      body: model.body,
      silent: options.silent,
      ...(this.icon ? { icon: this.icon } : {}),
      urgency: model.urgency,
      timeoutType: 'never',
      ...(this.supportsActions
        ? { actions: model.actions.map((a) => ({ type: 'button' as const, text: a.label })) }
        : {}),
      // macOS only: the notification's Reply field sends a reject with the words typed.
      ...(this.supportsActions && model.reply
        ? { hasReply: true, replyPlaceholder: model.reply.placeholder }
        : {}),
    });
    const reply = model.reply;
    if (reply && this.supportsActions)
      notification.on('reply', (details) =>
        this.listener?.replied(model.key, reply.id, details.reply),
      );
    notification.on('click', () => this.listener?.activated(model.key, 'default'));
    notification.on('action', (_event, index) => {
      const action = model.actions[index];
      if (action) this.listener?.activated(model.key, action.id);
    });
    return notification;
  }
}

/** Windows toasts with buttons; activations come back through `activate(token)`. */
export class ToastNotifier extends ShownNotifications {
  readonly supportsActions = true;
  private readonly tokens = new ActivationTokens();

  /** A gatehouse://notification/<token> link: acts only if this process issued the token. */
  activate(token: string): boolean {
    const activation = this.tokens.take(token);
    if (!activation) return false;
    this.listener?.activated(activation.key, activation.action);
    return true;
  }

  protected build(model: NotificationModel, options: { silent: boolean }): Notification {
    const xml = toastXml(model, (action) => activationLink(this.tokens.issue(model.key, action)));
    return new Notification({ toastXml: xml, silent: options.silent });
  }

  protected override forget(key: string): void {
    this.tokens.revoke(key);
  }
}

/** Shows nothing: the platform has no notifications (tray and dialog still carry every request). */
export class NullNotifier implements Notifier {
  readonly supportsActions = false;
  setListener(): void {}
  show(): void {}
  withdraw(): void {}
  close(): void {}
}

export interface PlatformNotifierOptions {
  icon?: string;
  log(message: string, error?: unknown): void;
}

export async function createPlatformNotifier(options: PlatformNotifierOptions): Promise<Notifier> {
  if (process.platform === 'linux') {
    try {
      const notifier = await FreedesktopNotifier.connect({
        appName: 'Gatehouse',
        appIcon: options.icon,
        desktopEntry: 'gatehouse',
      });
      if (!notifier.supportsActions) {
        options.log(
          `the notification service (${notifier.server.name}) shows no action buttons; click opens the dialog`,
        );
      }
      return notifier;
    } catch (error) {
      options.log(
        'no freedesktop notification service on D-Bus; notifications without actions',
        error,
      );
    }
  }
  if (!Notification.isSupported()) return new NullNotifier();
  if (process.platform === 'win32') return new ToastNotifier();
  return new ElectronNotifier(options.icon);
}
