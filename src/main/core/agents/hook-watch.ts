// The watch over the hooks `gatehouse hook install` wrote (hook-installs.ts): each settings file is
// judged against its install (hook-judge.ts) at start, within a debounce of any change in its folder
// (fs.watch on the folder: editors and CLIs replace files by rename), and on a slow poll in case a
// watch is lost. Each change is audited (`hook_changed`, hash-chained) and sent to every surface;
// the last audited state of each file is read back at start, so a hook removed while Gatehouse was
// down is noticed then, and one already reported is not reported again. Read only towards the files.
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import {
  HookChange,
  HookCli,
  HookScope,
  HookStatus,
  type HookedCli,
  type HookWatch as HookWatchView,
} from '../../../shared/hooked-clis';
import type { EventBus } from '../events/bus';
import { logger } from '../log/logger';
import type { Store } from '../store';
import { hookedClis, hookFileState, inspectHookFile } from './hooked-clis';
import { HOOK_INSTALLS_FILE, readHookInstalls, type HookInstall } from './hook-installs';
import { classifyChange, judgeHook, type Judgement, type Known } from './hook-judge';

const log = logger('hooks');

export const HOOK_CHANGED = 'hook_changed';
const DEBOUNCE_MS = 300;
/** A burst that never pauses is still checked this often. */
const MAX_WAIT_MS = 2000;
const POLL_MS = 15_000;
/** Audited changes read back at start (the newest of each file counts). */
const AUDIT_READ = 1000;

/** A `hook_changed` entry's payload, as written below and read back at start. */
const Audited = z.object({
  cli: HookCli,
  scope: HookScope,
  file: z.string().max(4096),
  change: HookChange,
  status: HookStatus.nullable(),
  changes: z.array(z.string()).max(50),
  installedAt: z.number().nullable(),
});
type Audited = z.infer<typeof Audited>;

export interface HookWatchOptions {
  /** The data folder: where the record of installs lives. */
  home: string;
  /** The user's HOME: whose settings files the view lists. */
  userHome: string;
  store: Pick<Store, 'recordEvent' | 'events'>;
  bus: EventBus;
  now: () => number;
  /** This installation's gatehouse, for the view's install commands. */
  entry: () => string | null;
  pollMs?: number;
  debounceMs?: number;
}

/** A watched folder: by its inode too, as one moved away and replaced must be watched anew. */
interface Watched {
  watcher: FSWatcher;
  names: Set<string>;
  ino: number;
}

type Seen = Known & { since: number; cli: HookInstall['cli']; scope: HookInstall['scope'] };

const keyOf = (cli: string, file: string): string => `${cli}\0${file}`;

export class HookWatcher {
  private readonly known = new Map<string, Seen>();
  private installs: HookInstall[] = [];
  private recordProblem: string | null = null;
  private readonly watchers = new Map<string, Watched>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstChangeAt = 0;
  private poll: ReturnType<typeof setInterval> | null = null;
  private closed = false;

  private constructor(private readonly options: HookWatchOptions) {}

  /** Reads what was last audited, checks every file once (audited as noticed at start), watches. */
  static async start(options: HookWatchOptions): Promise<HookWatcher> {
    const watcher = new HookWatcher(options);
    const entries = await options.store.events({ type: HOOK_CHANGED, limit: AUDIT_READ });
    for (const entry of entries) {
      const audited = Audited.safeParse(entry.payload);
      if (!audited.success) continue;
      const key = keyOf(audited.data.cli, audited.data.file);
      if (!watcher.known.has(key)) watcher.known.set(key, seenOf(audited.data, entry.at));
    }
    watcher.check(true);
    watcher.poll = setInterval(() => watcher.check(false), options.pollMs ?? POLL_MS);
    watcher.poll.unref();
    return watcher;
  }

  /** Each CLI's user settings file, then every other file an install wrote, with its watch. */
  rows(): HookedCli[] {
    const entry = this.options.entry();
    const user = hookedClis(this.options.userHome, entry).map((row) => ({
      ...row,
      scope: 'user' as const,
      watch: this.watchOf(row.cli, row.file),
    }));
    const listed = new Set(user.map((row) => keyOf(row.cli, row.file)));
    const others = this.installs
      .filter((install) => !listed.has(keyOf(install.cli, install.file)))
      .map((install) => ({
        ...hookFileState(install.cli, install.file, entry, install.project),
        scope: install.scope,
        watch: this.watchOf(install.cli, install.file),
      }));
    return [...user, ...others];
  }

  /** Judges every watched file now, auditing what changed since the last entry of each. */
  check(atStart = false): void {
    if (this.closed) return;
    this.readInstalls();
    const current = new Set<string>();
    for (const install of this.installs) {
      const key = keyOf(install.cli, install.file);
      current.add(key);
      const judgement = judgeHook(
        install,
        inspectHookFile(install.cli, install.file, install.entry),
      );
      const change = classifyChange(this.known.get(key) ?? null, judgement);
      if (change) this.record(install, change, judgement, install.installedAt, atStart);
    }
    // A record that cannot be read forgets nothing: every file known stays watched as it was.
    for (const [key, seen] of this.recordProblem === null ? this.known : []) {
      if (current.has(key) || classifyChange(seen, null) === null) continue;
      this.record({ ...seen, file: key.split('\0')[1]! }, 'uninstalled', null, null, atStart);
    }
    this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private watchOf(cli: HookCli, file: string): HookWatchView | null {
    const seen = this.known.get(keyOf(cli, file));
    if (!seen || seen.change === 'uninstalled') return null;
    return { status: seen.status, since: seen.since, changes: seen.changes };
  }

  /** The record as last read well: one that turns unreadable keeps every file watched. */
  private readInstalls(): void {
    const read = readHookInstalls(this.options.home);
    if ('installs' in read) {
      this.installs = read.installs;
      this.recordProblem = null;
      return;
    }
    if (this.recordProblem === read.unreadable) return;
    this.recordProblem = read.unreadable;
    log.warn(`the record of hook installs ${read.unreadable}; the last one read is kept`);
    this.options.store.recordEvent({
      type: 'hook_installs_unreadable',
      at: this.options.now(),
      payload: { file: HOOK_INSTALLS_FILE, reason: read.unreadable },
    });
  }

  private record(
    where: { cli: HookCli; scope: HookInstall['scope']; file: string },
    change: HookChange,
    judgement: Judgement | null,
    installedAt: number | null,
    atStart: boolean,
  ): void {
    const at = this.options.now();
    const audited: Audited = {
      cli: where.cli,
      scope: where.scope,
      file: where.file,
      change,
      status: judgement?.status ?? null,
      changes: judgement?.changes ?? [],
      installedAt,
    };
    this.options.store.recordEvent({
      type: HOOK_CHANGED,
      at,
      payload: { ...audited, ...(atStart ? { noticedAtStart: true } : {}) },
    });
    this.known.set(keyOf(where.cli, where.file), seenOf(audited, at));
    if (change === 'lost' || change === 'weakened')
      log.warn(`${where.cli} hook in ${where.file}: ${change} (${audited.changes.join('; ')})`);
    this.options.bus.publish({
      type: 'hook_changed',
      cli: where.cli,
      scope: where.scope,
      file: where.file,
      change,
      watch: judgement ? { status: judgement.status, since: at, changes: judgement.changes } : null,
    });
  }

  /** A check after the writes settle (bursts are one check, and so one entry per change). */
  private schedule(): void {
    if (this.closed) return;
    const now = Date.now();
    if (this.timer) {
      if (now - this.firstChangeAt >= MAX_WAIT_MS) return;
      clearTimeout(this.timer);
    } else this.firstChangeAt = now;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.check(false);
    }, this.options.debounceMs ?? DEBOUNCE_MS);
  }

  /**
   * Watches the folder of each file (its parent when the folder itself is gone, so its return is
   * seen) and the data folder for the record; names of interest only, as those folders see other
   * writes (a project, the database).
   */
  private arm(): void {
    const wanted = new Map<string, Set<string>>();
    const want = (dir: string, name: string) => {
      const names = wanted.get(dir) ?? new Set<string>();
      names.add(name);
      wanted.set(dir, names);
    };
    want(this.options.home, HOOK_INSTALLS_FILE);
    for (const { file } of this.installs) {
      const folder = dirname(file);
      if (existsSync(folder)) want(folder, basename(file));
      else want(dirname(folder), basename(folder));
    }
    for (const [dir, held] of this.watchers) {
      if (wanted.has(dir) && inodeOf(dir) === held.ino) continue;
      held.watcher.close();
      this.watchers.delete(dir);
    }
    for (const [dir, names] of wanted) {
      const held = this.watchers.get(dir);
      if (held) {
        held.names.clear();
        for (const name of names) held.names.add(name);
      } else this.watchDir(dir, names);
    }
  }

  private watchDir(dir: string, names: Set<string>): void {
    let watcher: FSWatcher;
    const ino = inodeOf(dir);
    if (ino === null) return;
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || names.has(String(name))) this.schedule();
      });
    } catch {
      return; // gone, or out of watches: the poll still checks it
    }
    // The folder was removed or moved: checked again, and watched anew from where it is.
    watcher.on('error', () => {
      watcher.close();
      if (this.watchers.get(dir)?.watcher === watcher) this.watchers.delete(dir);
      this.schedule();
    });
    this.watchers.set(dir, { watcher, names, ino });
  }
}

function inodeOf(dir: string): number | null {
  try {
    return statSync(dir).ino;
  } catch {
    return null;
  }
}

function seenOf(audited: Audited, at: number): Seen {
  return {
    cli: audited.cli,
    scope: audited.scope,
    change: audited.change,
    status: audited.status ?? 'lost',
    changes: audited.changes,
    since: at,
  };
}
