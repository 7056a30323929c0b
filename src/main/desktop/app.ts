// The desktop shell over the core: single instance, gatehouse:// links, windows, tray,
// notifications, start at login, and a quit that answers every pending request first.
import { join } from 'node:path';
import { app, dialog, session, type Event as ElectronEvent } from 'electron';
import type { GatehouseEvent } from '../../shared/contract';
import {
  SettingsError,
  createCore,
  type Core,
  installLogSink,
  logger,
  acquireHomeLock,
  HomeLockedError,
  type HomeLock,
  InvalidPolicyConfigError,
  AuditKeyError,
  placeDatabase,
  resolveHome,
} from '../core';
import { startControlServer, type ControlServer } from '../control/server';
import {
  desktopCaller,
  NotificationPresence,
  presenceVote,
  trayModel,
  type TrayAction,
} from '../presence';
import { installAppMenu } from './app-menu';
import { registerAppProtocol, registerAppScheme } from './app-protocol';
import { keychainAuditKey } from './audit-key';
import { HIDDEN_ARG, setLinuxAutostart } from './autostart';
import { confirmInDialog } from './confirm-change';
import { deepLinkFromArgv, parseDeepLink, type DeepLink } from './deep-link';
import { wireIpc } from './ipc';
import { electronLogSink } from './log';
import { createPlatformNotifier, ToastNotifier } from './notifications';
import { restrictApp, restrictSession } from './security';
import { APP_SCHEME, type WindowKind } from './security-policy';
import { TrayController } from './tray';
import { WindowManager } from './windows';

/** Same as appId in electron-builder.yml: Windows ties toasts to it. */
export const APP_ID = 'dev.gatehouse.app';
/** A quit waits this long for pending requests to be answered and audited. */
const QUIT_TIMEOUT_MS = 30_000;

const here = import.meta.dirname;
const paths = {
  preload: join(here, '../preload/index.cjs'),
  renderer: join(here, '../renderer'),
  resources: join(here, '../../resources'),
};

const desktopLog = logger('desktop');
/** The (message, error?) reporter the notifiers and presence take. */
const log = (message: string, error?: unknown) =>
  desktopLog.warn(message, ...(error === undefined ? [] : [error]));

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T | void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log(`${what} did not finish within ${ms / 1000} s; quitting anyway`);
      resolve();
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class Desktop {
  private core: Core | null = null;
  private lock: HomeLock | null = null;
  private control: ControlServer | null = null;
  private windows: WindowManager | null = null;
  private presence: NotificationPresence | null = null;
  private tray: TrayController | null = null;
  private toasts: ToastNotifier | null = null;
  private unwireIpc: (() => void) | null = null;
  private trayTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly queuedLinks: DeepLink[] = [];
  private started = false;
  private quitting: Promise<void> | null = null;
  private quitDone = false;
  private secondInstances = 0;
  private lastLink: DeepLink | null = null;
  /** Do-not-disturb from the tray (kept here too: it may be set before notifications are ready). */
  private paused = false;

  constructor(
    private readonly home: string,
    private readonly devServerUrl: string | undefined,
  ) {}

  async start(argv: readonly string[]): Promise<void> {
    restrictSession(session.defaultSession, this.devServerUrl);
    registerAppProtocol(paths.renderer);
    let core: Core;
    try {
      this.lock = acquireHomeLock(this.home, 'desktop');
      const auditKey = keychainAuditKey(this.home, placeDatabase(this.home));
      core = await createCore({
        home: this.home,
        ...(auditKey ? { auditKey } : {}),
        confirmLocally: confirmInDialog,
      });
    } catch (error) {
      const known =
        error instanceof SettingsError ||
        error instanceof InvalidPolicyConfigError ||
        error instanceof AuditKeyError ||
        error instanceof HomeLockedError;
      dialog.showErrorBox(
        'Gatehouse cannot start',
        known ? (error as Error).message : String(error),
      );
      this.quitDone = true;
      app.exit(1);
      return;
    }
    this.core = core;
    this.control = await startControlServer({ core, lock: this.lock, log });
    const windows = (this.windows = new WindowManager({
      preload: paths.preload,
      home: this.home,
      devServerUrl: this.devServerUrl,
    }));
    this.unwireIpc = wireIpc(core, windows, this.devServerUrl);
    installAppMenu(core, log);

    this.tray = new TrayController({
      resources: paths.resources,
      perform: (action) => void this.perform(action),
      onClick: () => this.open('approvals'),
    });
    this.renderTray();
    core.bus.subscribe((event) => this.onEvent(event));

    applyStartAtLogin(core.settings.desktop.startAtLogin);
    if (app.isPackaged && !app.isDefaultProtocolClient(APP_SCHEME))
      app.setAsDefaultProtocolClient(APP_SCHEME);

    this.started = true;
    const link = deepLinkFromArgv(argv);
    const hidden = argv.includes(HIDDEN_ARG) || app.getLoginItemSettings().wasOpenedAtLogin;
    if (link) this.onLink(link);
    else if (!hidden) this.open('approvals');
    for (const queued of this.queuedLinks.splice(0)) this.onLink(queued);
    // Connecting to the notification service (D-Bus on Linux) must not hold up the tray and the
    // window: requests pending by then are shown as one batch when it is ready.
    void this.startNotifications(core).catch((error: unknown) =>
      log('notifications are off', error),
    );
  }

  private async startNotifications(core: Core): Promise<void> {
    // A notification server is another process: it needs a real file, not a path inside app.asar.
    const icon = app.isPackaged
      ? join(process.resourcesPath, 'icon.png')
      : join(paths.resources, 'icon.png');
    const notifier = await createPlatformNotifier({ icon, log });
    if (this.quitting) {
      await notifier.close();
      return;
    }
    this.toasts = notifier instanceof ToastNotifier ? notifier : null;
    this.presence = new NotificationPresence({
      core,
      notifier,
      onOpen: (requestId) => this.open('approvals', requestId ?? undefined),
      log,
    });
    this.presence.setPaused(this.paused);
    this.presence.start();
  }

  /** A second launch: its deep link is handled here, or the dialog comes to the front. */
  onSecondInstance(argv: readonly string[]): void {
    this.secondInstances += 1;
    const link = deepLinkFromArgv(argv);
    if (link) this.onLink(link);
    else if (this.started) this.open('approvals');
  }

  onLink(link: DeepLink | null): void {
    if (!link) return;
    if (!this.started) {
      this.queuedLinks.push(link);
      return;
    }
    this.lastLink = link;
    switch (link.type) {
      case 'approve':
        this.open('approvals', link.requestId);
        return;
      case 'open':
        this.open(link.view);
        return;
      case 'activation':
        // Only a token this process issued for a live toast acts; anything else is ignored.
        if (!this.toasts?.activate(link.token))
          log('ignored an unknown or spent notification link');
        return;
    }
  }

  open(kind: WindowKind, requestId?: string): void {
    this.windows?.open(kind, { requestId });
  }

  beforeQuit(event: ElectronEvent): void {
    if (this.quitDone || !this.core) return;
    event.preventDefault();
    this.quitting ??= this.shutdown().finally(() => {
      this.quitDone = true;
      app.quit();
    });
  }

  /** Test hooks (unpackaged builds with GATEHOUSE_TEST_HOOKS=1): read from Playwright's evaluate. */
  hooks() {
    return {
      tray: () => this.tray?.model ?? null,
      pending: () => this.core?.pipeline.pending.list().map((a) => a.requestId) ?? [],
      secondInstances: () => this.secondInstances,
      lastLink: () => this.lastLink,
      paused: () => this.paused,
      perform: (action: TrayAction) => this.perform(action),
      windows: () =>
        this.windows?.all().map((w) => ({
          url: w.webContents.getURL(),
          visible: w.isVisible(),
          focused: w.isFocused(),
        })) ?? [],
    };
  }

  private async shutdown(): Promise<void> {
    const core = this.core!;
    await this.control?.close();
    // core.close() answers every pending request fail-closed and audits it; their notifications
    // are withdrawn by the permission_resolved events that follow.
    await withTimeout(core.close(), QUIT_TIMEOUT_MS, 'answering pending requests');
    await withTimeout(
      this.presence?.close() ?? Promise.resolve(),
      5000,
      'withdrawing notifications',
    );
    this.unwireIpc?.();
    this.tray?.destroy();
    if (this.trayTimer) clearTimeout(this.trayTimer);
    this.lock?.release();
  }

  private onEvent(event: GatehouseEvent): void {
    switch (event.type) {
      case 'permission_requested':
        if (this.core?.settings.desktop.raiseOnRequest) {
          // Raise the dialog; move it to the new request only if it was not already open.
          this.open(
            'approvals',
            this.windows?.get('approvals') ? undefined : event.approval.requestId,
          );
        }
        this.scheduleTray();
        return;
      case 'permission_resolved':
      case 'permission_partial_vote':
        this.scheduleTray();
        return;
      default:
        return;
    }
  }

  private scheduleTray(): void {
    this.trayTimer ??= setTimeout(() => {
      this.trayTimer = null;
      this.renderTray();
    }, 50);
  }

  private renderTray(): void {
    if (!this.tray || !this.core || this.quitting) return;
    const model = trayModel(this.core.pipeline.pending.list(), { paused: this.paused });
    this.tray.render(model, this.windows?.all() ?? []);
  }

  private async perform(action: TrayAction): Promise<void> {
    const core = this.core;
    if (!core || this.quitting) return;
    switch (action.type) {
      case 'vote':
      case 'cancel': {
        const vote =
          action.type === 'vote'
            ? { optionId: action.optionId }
            : { outcome: 'cancelled' as const };
        const result = await presenceVote(
          core.handlers,
          desktopCaller('tray'),
          action.requestId,
          vote,
        );
        if (!result.ok) log(`tray vote failed: ${result.error.message}`);
        return;
      }
      case 'open':
        this.open(action.view, action.requestId);
        return;
      case 'toggle-pause':
        this.paused = !this.paused;
        this.presence?.setPaused(this.paused);
        this.renderTray();
        return;
      case 'quit':
        app.quit();
        return;
    }
  }
}

function applyStartAtLogin(enabled: boolean): void {
  // A development build must not register the bare Electron binary as a login item.
  if (!app.isPackaged) return;
  try {
    if (process.platform === 'linux')
      setLinuxAutostart(enabled, process.env.APPIMAGE ?? process.execPath);
    else app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_ARG] });
  } catch (error) {
    log('could not change the start-at-login setting', error);
  }
}

export function startDesktop(): void {
  // The dev server and test hooks exist only in development: a packaged app ignores both variables.
  const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const home = resolveHome(process.env);
  installLogSink(electronLogSink(home));
  // Chromium's profile, and with it the single-instance lock, lives in Gatehouse's home: one running
  // Gatehouse per home (tests run side by side with their own homes).
  app.setPath('userData', join(home, 'electron'));
  registerAppScheme();
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  if (!app.requestSingleInstanceLock()) {
    // The first instance receives our argv (and its deep link) through 'second-instance'.
    app.quit();
    return;
  }
  restrictApp(app, devServerUrl);

  const desktop = new Desktop(home, devServerUrl);
  if (!app.isPackaged && process.env.GATEHOUSE_TEST_HOOKS === '1') {
    (globalThis as { __gatehouse?: unknown }).__gatehouse = desktop.hooks();
  }
  app.on('second-instance', (_event, argv) => desktop.onSecondInstance(argv));
  app.on('open-url', (event, url) => {
    event.preventDefault();
    desktop.onLink(parseDeepLink(url));
  });
  app.on('activate', () => desktop.open('approvals'));
  // Closing every window leaves Gatehouse in the tray; only Quit (or the OS) ends it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => desktop.beforeQuit(event));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => app.quit());

  app
    .whenReady()
    .then(() => desktop.start(process.argv))
    .catch((error: unknown) => {
      desktopLog.error('Gatehouse failed to start:', error);
      app.exit(1);
    });
}
