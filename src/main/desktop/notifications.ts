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

/** Electron's Notification: macOS actions; elsewhere the body click only. */
export class ElectronNotifier implements Notifier {
  readonly supportsActions = process.platform === 'darwin';
  private listener: NotifierListener | null = null;
  private readonly shown = new Map<string, Notification>();

  constructor(private readonly icon?: string) {}

  setListener(listener: NotifierListener): void {
    this.listener = listener;
  }

  show(model: NotificationModel, options: { silent: boolean }): void {
    this.drop(model.key);
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
    });
    notification.on('click', () => this.listener?.activated(model.key, 'default'));
    notification.on('action', (_event, index) => {
      const action = model.actions[index];
      if (action) this.listener?.activated(model.key, action.id);
    });
    notification.on('close', () => {
      if (this.shown.get(model.key) !== notification) return;
      this.shown.delete(model.key);
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

  private drop(key: string): void {
    const old = this.shown.get(key);
    if (!old) return;
    this.shown.delete(key);
    old.close();
  }
}

/** Windows toasts with buttons; activations come back through `activate(token)`. */
export class ToastNotifier implements Notifier {
  readonly supportsActions = true;
  private listener: NotifierListener | null = null;
  private readonly shown = new Map<string, Notification>();
  private readonly tokens = new ActivationTokens();

  setListener(listener: NotifierListener): void {
    this.listener = listener;
  }

  show(model: NotificationModel, options: { silent: boolean }): void {
    this.drop(model.key);
    const xml = toastXml(model, (action) => activationLink(this.tokens.issue(model.key, action)));
    const notification = new Notification({ toastXml: xml, silent: options.silent });
    notification.on('close', () => {
      if (this.shown.get(model.key) !== notification) return;
      this.shown.delete(model.key);
      this.tokens.revoke(model.key);
      this.listener?.closed(model.key, 'dismissed');
    });
    this.shown.set(model.key, notification);
    notification.show();
  }

  /** A gatehouse://notification/<token> link: acts only if this process issued the token. */
  activate(token: string): boolean {
    const activation = this.tokens.take(token);
    if (!activation) return false;
    this.listener?.activated(activation.key, activation.action);
    return true;
  }

  withdraw(key: string): void {
    this.drop(key);
  }

  close(): void {
    for (const key of [...this.shown.keys()]) this.drop(key);
  }

  private drop(key: string): void {
    this.tokens.revoke(key);
    const old = this.shown.get(key);
    if (!old) return;
    this.shown.delete(key);
    old.close();
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
