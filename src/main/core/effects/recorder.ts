// What an allowed request really did. When a request is allowed (before the agent hears it), the
// contents it is about to change are kept for undo: an edit's files, or the files a command's
// preview said it changes. For a command in a session Gatehouse sandboxed itself, the project is
// snapshot then and again when the agent reports the tool call finished (or the turn or session
// ends): the difference is what it changed, audited as `command_effects` beside what the preview
// said, with the difference flagged.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PendingApproval } from '../../../shared/domain';
import { EFFECTS_LIMITS, effectsDifference, type ActualEffects } from '../../../shared/effects';
import type { EventBus } from '../events/bus';
import { logger } from '../log/logger';
import type { ProtectedEntry } from '../rules/protected-files';
import type { Store } from '../store';
import { compareSnapshots } from './compare';
import { realPathSync } from '../fs/containment';
import { readInPlace } from '../fs/read-in-place';
import { keepBefore, readSlices, sha256 } from './keep';
import {
  pruneKept,
  requestFolder,
  writeManifest,
  type AfterState,
  type UndoManifest,
} from './manifest';
import { snapshotTree, type Snapshot } from './snapshot';

const log = logger('effects');

/**
 * Commands observed at once, of one session and in all: each holds a snapshot of its project (up
 * to 50,000 entries, some megabytes). Past either bound the oldest is compared now.
 */
const OPEN_PER_SESSION = 4;
const OPEN_IN_ALL = 16;

export interface EffectsSession {
  cwd: string;
  /** Gatehouse started its agent and performs its writes (no editor or terminal in between). */
  own: boolean;
  /** The agent runs in Gatehouse's own sandbox with the project writable: its changes are seen. */
  observable: boolean;
}

export interface EffectsDeps {
  /** The data folder: kept contents go to `undo/` in it. */
  home: string;
  store: Pick<Store, 'recordEvent'>;
  bus: Pick<EventBus, 'subscribe'>;
  now: () => number;
  /** The session a request came from; null when Gatehouse does not know it (any more). */
  session: (sessionId: string) => EffectsSession | null;
  protectedEntries: () => readonly ProtectedEntry[];
  /** Told how long each allow was held for keeping (the bench, the tests). */
  held?: (ms: number, kind: UndoManifest['kind']) => void;
}

interface Observation {
  key: string;
  approval: PendingApproval;
  manifest: UndoManifest;
  before: Snapshot;
  startedAt: number;
}

interface Reported {
  observation: Observation;
  after: Snapshot;
  allows: number;
}

export class EffectsRecorder {
  private readonly open = new Map<string, Observation>();
  /** Allowed requests per session: a later look is fair only when nothing was allowed since. */
  private readonly allows = new Map<string, number>();
  /**
   * Per session, the last command compared when its agent said it finished: looked at again when
   * the turn ends, since an agent may say so early, or leave something running that writes on.
   */
  private readonly reported = new Map<string, Reported>();
  /** Comparisons under way, so that close() can wait for them. */
  private readonly finishing = new Set<Promise<void>>();
  private readonly unsubscribe: () => void;
  /**
   * Bytes kept in `undo/`: what the last scan found plus what was kept since; null before the
   * first scan. Each allowed edit keeps its file, so scanning every manifest at every allow cost
   * the reply more with each request kept (200 ms per edit after 2,000 of them): the folder is
   * scanned, and the oldest removed, only once the count says the bound is passed.
   */
  private keptBytes: number | null = null;
  private scanning = false;
  private keptSinceScan = 0;

  constructor(private readonly deps: EffectsDeps) {
    this.unsubscribe = deps.bus.subscribe((event) => {
      if (event.type === 'session_update') {
        const update = event.update as {
          sessionUpdate: string;
          toolCallId?: unknown;
          status?: unknown;
        };
        const ended = update.status === 'completed' || update.status === 'failed';
        if (update.sessionUpdate !== 'tool_call_update' || !ended) return;
        if (typeof update.toolCallId !== 'string') return;
        this.finish(keyOf(event.sessionId, update.toolCallId), update.status as 'completed');
      } else if (event.type === 'turn_ended') {
        this.finishSession(event.sessionId, 'turn_end');
      } else if (event.type === 'session_state' && event.session.state === 'closed') {
        this.finishSession(event.session.sessionId, 'session_end');
      }
    });
  }

  /**
   * Called with each allowed request before the agent hears the answer. Never throws: keeping
   * what undo needs must not turn an allow into an error; what could not be kept is named.
   */
  async allowed(approval: PendingApproval): Promise<void> {
    const started = performance.now();
    this.allows.set(approval.sessionId, (this.allows.get(approval.sessionId) ?? 0) + 1);
    try {
      const session = this.deps.session(approval.sessionId);
      if (!session) return;
      if (approval.command) {
        // Only a command a person was asked about (its request carries a preview, run or not): one a
        // rule, grant or mode allows is answered at once, never held for a snapshot of the project.
        if (session.observable && approval.preview)
          await this.startCommand(approval, session, started);
      } else if (approval.diffs.length > 0 && session.own) {
        await this.keepEdit(approval, session, started);
      }
    } catch (error) {
      log.warn(`keeping what request ${approval.requestId} changes failed:`, error);
    }
  }

  private async keepEdit(
    approval: PendingApproval,
    session: EffectsSession,
    started: number,
  ): Promise<void> {
    const paths = approval.diffs.flatMap((d) =>
      [d.path, d.oldPath].filter((p): p is string => !!p).map((p) => resolve(session.cwd, p)),
    );
    const root = realPathSync(session.cwd);
    const dir = requestFolder(this.deps.home, approval.requestId);
    const kept = await keepBefore(dir, paths, [root]);
    const manifest = this.manifestOf(approval, 'edit', root, kept);
    manifest.heldMs = this.heldSince(started, 'edit');
    writeManifest(this.deps.home, manifest);
    this.prune(kept.bytes);
  }

  private async startCommand(
    approval: PendingApproval,
    session: EffectsSession,
    started: number,
  ): Promise<void> {
    const root = realPathSync(session.cwd);
    // What the preview said the command changes: those files' contents are what undo puts back.
    const named = (approval.preview?.changes ?? []).flatMap((c) =>
      c.change === 'created' ? [] : [resolve(session.cwd, c.oldPath ?? c.path)],
    );
    const dir = requestFolder(this.deps.home, approval.requestId);
    const [kept, before] = await Promise.all([keepBefore(dir, named, [root]), snapshotTree(root)]);
    const manifest = this.manifestOf(approval, 'command', root, kept);
    manifest.heldMs = this.heldSince(started, 'command');
    writeManifest(this.deps.home, manifest);
    const key = keyOf(approval.sessionId, approval.toolCall.toolCallId);
    // The same tool call allowed again (an agent asking twice): the first one ends here.
    if (this.open.has(key)) this.finish(key, 'completed');
    this.open.set(key, { key, approval, manifest, before, startedAt: this.deps.now() });
    this.prune(kept.bytes);
    const ofSession = [...this.open.values()].filter(
      (o) => o.approval.sessionId === approval.sessionId,
    );
    const crowded = 'more commands were allowed before it finished than are watched at once';
    if (ofSession.length > OPEN_PER_SESSION) this.finish(ofSession[0]!.key, 'turn_end', crowded);
    if (this.open.size > OPEN_IN_ALL)
      this.finish(this.open.keys().next().value!, 'turn_end', crowded);
  }

  private manifestOf(
    approval: PendingApproval,
    kind: UndoManifest['kind'],
    root: string,
    kept: Awaited<ReturnType<typeof keepBefore>>,
  ): UndoManifest {
    return {
      version: 1,
      requestId: approval.requestId,
      sessionId: approval.sessionId,
      agentId: approval.agentId,
      kind,
      roots: [root],
      keptAt: this.deps.now(),
      bytes: kept.bytes,
      heldMs: 0,
      before: kept.before,
      changes: null,
      after: null,
      incomplete: null,
      undoneAt: null,
    };
  }

  private heldSince(started: number, kind: UndoManifest['kind']): number {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    this.deps.held?.(ms, kind);
    return ms;
  }

  private finishSession(sessionId: string, endedBy: ActualEffects['endedBy']): void {
    for (const o of [...this.open.values()]) {
      if (o.approval.sessionId === sessionId) this.finish(o.key, endedBy);
    }
    // After the comparisons under way, which may be the one the turn's end looks at again.
    const ongoing = Promise.allSettled([...this.finishing]);
    this.track(
      ongoing.then(() => this.lookAgain(sessionId, endedBy)),
      `looking again at what session ${sessionId} changed`,
    );
    if (endedBy === 'session_end') this.allows.delete(sessionId);
  }

  /**
   * The project changed after the agent said its command finished, with nothing allowed since:
   * recorded again from the allow to now, as incomplete (so not undone), with why.
   */
  private async lookAgain(sessionId: string, endedBy: ActualEffects['endedBy']): Promise<void> {
    const last = this.reported.get(sessionId);
    this.reported.delete(sessionId);
    if (!last || last.allows !== (this.allows.get(sessionId) ?? 0)) return;
    const o = last.observation;
    const now = await snapshotTree(o.before.root);
    const later = compareSnapshots(last.after, now).changes.length;
    if (later === 0) return;
    const reason = `the project changed after the agent said the command finished (${later} more ${later === 1 ? 'change' : 'changes'})`;
    await this.compare(o, endedBy, now, reason);
  }

  private track(work: Promise<unknown>, what: string): void {
    const done = work.then(
      () => undefined,
      (error: unknown) => log.warn(`${what} failed:`, error),
    );
    this.finishing.add(done);
    void done.finally(() => this.finishing.delete(done));
  }

  private finish(key: string, endedBy: ActualEffects['endedBy'], doubt?: string): void {
    const observation = this.open.get(key);
    if (!observation) return;
    this.open.delete(key);
    this.track(
      this.compare(observation, endedBy, undefined, doubt),
      `comparing what request ${observation.approval.requestId} changed`,
    );
  }

  private async compare(
    o: Observation,
    endedBy: ActualEffects['endedBy'],
    seen?: Snapshot,
    doubt: string | null = null,
  ): Promise<void> {
    const { approval, manifest, before } = o;
    const after = seen ?? (await snapshotTree(before.root));
    const { changes, counts } = compareSnapshots(before, after, this.deps.protectedEntries());
    const incomplete = before.reason ?? after.reason ?? doubt;
    if (!seen && (endedBy === 'completed' || endedBy === 'failed')) {
      const allows = this.allows.get(approval.sessionId) ?? 0;
      this.reported.set(approval.sessionId, { observation: o, after, allows });
    }
    const afterStates: AfterState[] = [];
    // A build may leave gigabytes: past the bound a file's hash is not taken, and undo refuses it.
    let hashed = 0;
    const slice = readSlices();
    for (const c of changes) {
      if (c.entry !== 'file' || c.change === 'deleted') continue;
      const left = EFFECTS_LIMITS.hashedRequestBytes - hashed;
      const read = readInPlace(c.path, Math.min(EFFECTS_LIMITS.hashedFileBytes, left));
      const data = read.kind === 'file' ? read.data : null;
      hashed += data?.length ?? 0;
      afterStates.push({ path: c.path, sha256: data ? sha256(data) : null });
      await slice(data?.length ?? 0);
    }
    writeManifest(this.deps.home, {
      ...manifest,
      changes,
      after: afterStates,
      incomplete,
    });
    const preview = approval.preview ?? null;
    const previewed =
      preview && (preview.state === 'done' || preview.state === 'incomplete') ? preview : null;
    const effects: ActualEffects = {
      state: incomplete ? 'incomplete' : 'observed',
      reason: incomplete,
      endedBy,
      changes: changes.slice(0, EFFECTS_LIMITS.changes),
      counts,
      previewed: previewed?.counts ?? null,
      difference: previewed
        ? effectsDifference(
            previewed.counts,
            new Set(previewed.changes.map((c) => resolve(approval.cwd, c.path))),
            counts,
            changes.map((c) => c.path),
          )
        : null,
      startedAt: o.startedAt,
      endedAt: this.deps.now(),
    };
    const notKept = manifest.before.filter((b) => b.state === 'not_kept').slice(0, 20);
    this.deps.store.recordEvent(
      {
        type: 'command_effects',
        requestId: approval.requestId,
        sessionId: approval.sessionId,
        agentId: approval.agentId,
        at: effects.endedAt,
        payload: { ...effects, heldReplyMs: manifest.heldMs, notKept },
      },
      { soon: true },
    );
  }

  /** `added`: the bytes just kept. A scan under way counts them when it ends. */
  private prune(added: number): void {
    if (this.scanning) {
      this.keptSinceScan += added;
      return;
    }
    if (this.keptBytes !== null) {
      this.keptBytes += added;
      if (this.keptBytes <= EFFECTS_LIMITS.keptTotalBytes) return;
    }
    this.scanning = true;
    this.keptSinceScan = 0;
    this.keptBytes = null;
    // A manifest written while the scan reads may be counted twice: the next scan comes sooner.
    // A scan that fails leaves the count unknown, so the next keep scans again.
    const scan = pruneKept(this.deps.home)
      .then(({ bytes }) => void (this.keptBytes = bytes + this.keptSinceScan))
      .finally(() => (this.scanning = false));
    this.track(scan, 'removing the oldest kept contents');
  }

  /** Waits for the comparisons under way (the tests, a clean shutdown). */
  async settled(): Promise<void> {
    while (this.finishing.size > 0) await Promise.all([...this.finishing]);
  }

  close(): void {
    this.unsubscribe();
    this.open.clear();
  }
}

function keyOf(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}
