// The three windows (approvals dialog, history, settings): created hidden and shown on
// ready-to-show, one of each at most, size and position kept in window-state.json.
import { BrowserWindow, screen, type WebContents } from 'electron';
import { APP_ORIGIN, windowHash, windowOptions, type WindowKind } from './security-policy';
import {
  loadWindowState,
  restoreBounds,
  saveWindowState,
  windowStatePath,
  type WindowState,
} from './window-state';
import { logger } from '../core';

const log = logger('windows');

export interface WindowManagerOptions {
  preload: string;
  /** Gatehouse's home: the state file lives there. */
  home: string;
  devServerUrl?: string;
}

export interface OpenOptions {
  /** Approvals only: open the dialog on this request. */
  requestId?: string;
  /** Bring the window to the front and give it focus (default true). */
  focus?: boolean;
}

export class WindowManager {
  private readonly windows = new Map<WindowKind, BrowserWindow>();
  private readonly stateFile: string;
  private readonly state: WindowState;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: WindowManagerOptions) {
    this.stateFile = windowStatePath(options.home);
    this.state = loadWindowState(this.stateFile);
  }

  get(kind: WindowKind): BrowserWindow | undefined {
    const win = this.windows.get(kind);
    return win && !win.isDestroyed() ? win : undefined;
  }

  all(): BrowserWindow[] {
    return [...this.windows.values()].filter((w) => !w.isDestroyed());
  }

  contents(): WebContents[] {
    return this.all().map((w) => w.webContents);
  }

  /** Whether these web contents belong to a window Gatehouse created (IPC sender check). */
  owns(contents: WebContents): boolean {
    return this.all().some((w) => w.webContents === contents);
  }

  open(kind: WindowKind, options: OpenOptions = {}): BrowserWindow {
    const focus = options.focus ?? true;
    const existing = this.get(kind);
    if (existing) {
      if (options.requestId)
        void existing.webContents.loadURL(this.url(kind, options.requestId)).catch(() => undefined);
      if (focus) this.raise(existing);
      return existing;
    }
    const displays = screen.getAllDisplays().map((d) => d.workArea);
    const saved = this.state[kind];
    const win = new BrowserWindow(
      windowOptions(kind, this.options.preload, restoreBounds(saved, displays)),
    );
    this.windows.set(kind, win);
    win.once('ready-to-show', () => {
      if (saved?.maximized) win.maximize();
      if (focus) this.raise(win);
      else win.showInactive();
    });
    const remember = () => this.remember(kind, win);
    win.on('resize', remember);
    win.on('move', remember);
    win.on('close', () => this.remember(kind, win, true));
    win.on('closed', () => {
      if (this.windows.get(kind) === win) this.windows.delete(kind);
    });
    void win.loadURL(this.url(kind, options.requestId)).catch(() => undefined);
    return win;
  }

  closeAll(): void {
    for (const win of this.all()) win.close();
    this.flushState();
  }

  private raise(win: BrowserWindow): void {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  private url(kind: WindowKind, requestId?: string): string {
    const base = this.options.devServerUrl ?? `${APP_ORIGIN}/index.html`;
    return `${base}${windowHash(kind, requestId)}`;
  }

  private remember(kind: WindowKind, win: BrowserWindow, now = false): void {
    if (win.isDestroyed()) return;
    const bounds = win.getNormalBounds();
    this.state[kind] = { ...bounds, maximized: win.isMaximized() };
    if (now) this.flushState();
    else {
      if (this.saveTimer) clearTimeout(this.saveTimer);
      this.saveTimer = setTimeout(() => this.flushState(), 500);
    }
  }

  private flushState(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    try {
      saveWindowState(this.stateFile, this.state);
    } catch (error) {
      log.warn('could not save the window state:', error);
    }
  }
}
