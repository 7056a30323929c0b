// Linux notifications through the freedesktop notification service over D-Bus
// (org.freedesktop.Notifications): Notify with actions, ActionInvoked, NotificationReplied (a
// server's reply field) and NotificationClosed signals, CloseNotification to withdraw. Plain Node — usable from the Electron main process and
// from tests alike. Spec: https://specifications.freedesktop.org/notification-spec/latest/
import { DBusConnection, type DBusMessage } from './dbus';
import type { NotificationModel } from './notification-plan';
import type { CloseReason, Notifier, NotifierListener } from './notification-presence';

const SERVICE = 'org.freedesktop.Notifications';
const FDN = { destination: SERVICE, path: '/org/freedesktop/Notifications', interface: SERVICE };

export interface FreedesktopNotifierOptions {
  /** Defaults to DBUS_SESSION_BUS_ADDRESS. */
  busAddress?: string;
  appName?: string;
  /** Absolute path of a PNG, or an icon theme name. */
  appIcon?: string;
  /** Name of the .desktop file (without the suffix), so the desktop can group and theme them. */
  desktopEntry?: string;
  callTimeoutMs?: number;
}

export interface ServerInformation {
  name: string;
  vendor: string;
  version: string;
  specVersion: string;
}

const markupEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Reasons of NotificationClosed, per the spec. */
function closeReason(code: unknown): CloseReason {
  return code === 1 ? 'expired' : code === 2 ? 'dismissed' : 'other';
}

export class FreedesktopNotifier implements Notifier {
  readonly supportsActions: boolean;
  /** The server shows a reply field (the `inline-reply` capability). */
  readonly supportsReply: boolean;
  /** The reply action of each notification shown with a reply field, by D-Bus id. */
  private readonly replies = new Map<number, string>();
  private listener: NotifierListener | null = null;
  private readonly ids = new Map<string, number>();
  private readonly keys = new Map<number, string>();
  private owner: string | null;
  private readonly escapeBody: boolean;
  private readonly escapeSummary: boolean;

  private constructor(
    private readonly bus: DBusConnection,
    readonly capabilities: ReadonlySet<string>,
    readonly server: ServerInformation,
    owner: string | null,
    private readonly options: FreedesktopNotifierOptions,
  ) {
    this.owner = owner;
    this.supportsActions = capabilities.has('actions');
    this.supportsReply = this.supportsActions && capabilities.has('inline-reply');
    // Text that could be read as markup is escaped: a hostile path must not become a link or hide
    // the rest of the line. Servers that advertise body-markup parse the body; dunst parses both
    // summary and body by default (its `markup = full`) without advertising it.
    const dunst = server.name.toLowerCase() === 'dunst';
    this.escapeBody = capabilities.has('body-markup') || dunst;
    this.escapeSummary = dunst;
    bus.onSignal((message) => this.onSignal(message));
    bus.onClose(() => this.forgetAll());
  }

  /** Connects to the notification service; rejects when there is no bus or no service on it. */
  static async connect(options: FreedesktopNotifierOptions = {}): Promise<FreedesktopNotifier> {
    const bus = await DBusConnection.open(options.busAddress, {
      callTimeoutMs: options.callTimeoutMs,
    });
    try {
      await bus.addMatch(`type='signal',interface='${SERVICE}',path='${FDN.path}'`);
      await bus.addMatch(
        `type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${SERVICE}'`,
      );
      // GetCapabilities also starts a D-Bus-activatable service that is not running yet.
      const [caps] = await bus.call({ ...FDN, member: 'GetCapabilities' });
      const [name, vendor, version, specVersion] = await bus.call({
        ...FDN,
        member: 'GetServerInformation',
      });
      const owner = await bus.nameOwner(SERVICE);
      return new FreedesktopNotifier(
        bus,
        new Set(Array.isArray(caps) ? caps.filter((c): c is string => typeof c === 'string') : []),
        {
          name: String(name),
          vendor: String(vendor),
          version: String(version),
          specVersion: String(specVersion),
        },
        owner,
        options,
      );
    } catch (error) {
      bus.close();
      throw error;
    }
  }

  setListener(listener: NotifierListener): void {
    this.listener = listener;
  }

  /** The D-Bus id of a shown notification (tests and diagnostics). */
  idOf(key: string): number | undefined {
    return this.ids.get(key);
  }

  async show(model: NotificationModel, options: { silent: boolean }): Promise<void> {
    const replaces = this.ids.get(model.key) ?? 0;
    // "default" is the body click: it opens the dialog on the request.
    const actions = ['default', 'Open', ...model.actions.flatMap((a) => [a.id, a.label])];
    // A reply field (KDE's inline-reply, which other servers adopted): offered only to a server
    // that says it shows one, as the action `inline-reply`; its words come back in
    // NotificationReplied. Elsewhere the reply is left out and Deny stays as it is.
    const reply = this.supportsReply ? model.reply : undefined;
    if (reply) actions.push('inline-reply', reply.label);
    const hints: Array<[string, [string, unknown]]> = [
      ['urgency', ['y', model.urgency === 'critical' ? 2 : 1]],
      ['category', ['s', 'x-gatehouse.request']],
      // Decided requests are withdrawn by Gatehouse; the server must not keep a stale copy.
      ['transient', ['b', false]],
      ['resident', ['b', false]],
    ];
    if (this.options.desktopEntry) hints.push(['desktop-entry', ['s', this.options.desktopEntry]]);
    if (options.silent) hints.push(['suppress-sound', ['b', true]]);
    if (reply) hints.push(['x-kde-reply-placeholder-text', ['s', reply.placeholder]]);
    const body = this.capabilities.has('body')
      ? this.escapeBody
        ? markupEscape(model.body)
        : model.body
      : '';
    const summary = this.escapeSummary ? markupEscape(model.title) : model.title;
    const [id] = await this.bus.call({
      ...FDN,
      member: 'Notify',
      signature: 'susssasa{sv}i',
      // expire_timeout 0: stays until decided (then withdrawn), dismissed, or the request times out.
      body: [
        this.options.appName ?? 'Gatehouse',
        replaces,
        this.options.appIcon ?? '',
        summary,
        body,
        actions,
        hints,
        0,
      ],
    });
    if (typeof id !== 'number') throw new Error('Notify returned no id');
    if (replaces && replaces !== id) {
      this.keys.delete(replaces);
      this.replies.delete(replaces);
    }
    this.ids.set(model.key, id);
    this.keys.set(id, model.key);
    if (reply) this.replies.set(id, reply.id);
    else this.replies.delete(id);
  }

  async withdraw(key: string): Promise<void> {
    const id = this.ids.get(key);
    if (id === undefined) return;
    this.ids.delete(key);
    this.keys.delete(id);
    this.replies.delete(id);
    try {
      await this.bus.call({ ...FDN, member: 'CloseNotification', signature: 'u', body: [id] });
    } catch {
      // Already gone (the person dismissed it, or the server closed it after an action).
    }
  }

  async close(): Promise<void> {
    this.forgetAll();
    this.bus.close();
  }

  private onSignal(message: DBusMessage): void {
    if (message.interface === 'org.freedesktop.DBus' && message.member === 'NameOwnerChanged') {
      // The bus stamps the sender; only the bus itself can speak as org.freedesktop.DBus.
      if (message.sender !== 'org.freedesktop.DBus') return;
      const [name, , newOwner] = message.body ?? [];
      if (name !== SERVICE) return;
      // A new (or no) server: the ids of the old one mean nothing now.
      this.owner = typeof newOwner === 'string' && newOwner ? newOwner : null;
      this.forgetAll();
      return;
    }
    if (message.interface !== SERVICE || message.path !== FDN.path) return;
    // Any client of the session bus can send a signal; only the notification server's count.
    if (!this.owner || message.sender !== this.owner) return;
    const [id, arg] = message.body ?? [];
    if (typeof id !== 'number') return;
    const key = this.keys.get(id);
    if (key === undefined) return;
    if (message.member === 'ActionInvoked' && typeof arg === 'string') {
      this.listener?.activated(key, arg);
    } else if (message.member === 'NotificationReplied' && typeof arg === 'string') {
      // Only a notification shown with a reply field can be replied to.
      const reply = this.replies.get(id);
      if (reply) this.listener?.replied(key, reply, arg);
    } else if (message.member === 'NotificationClosed') {
      this.ids.delete(key);
      this.keys.delete(id);
      this.replies.delete(id);
      this.listener?.closed(key, closeReason(arg));
    }
  }

  private forgetAll(): void {
    const keys = [...this.ids.keys()];
    this.ids.clear();
    this.keys.clear();
    this.replies.clear();
    for (const key of keys) this.listener?.closed(key, 'other');
  }
}
