// A command's preview on its way from the request to the person. Only a request a person is asked
// about, whose exact command the agent sent, is previewed: the request is shown at once with the
// preview "running" (the countdown does not wait), the run happens beside it, and its end changes
// the request as shown, its warnings, the audit and the rules that wait for it. A request that ends
// first stops its run and the result is dropped; a previewer that fails says so and allows nothing.
import { isAbsolute } from 'node:path';
import type { PendingApproval, Warning } from '../../../shared/domain';
import { CommandPreview, emptyPreview, PREVIEW_LIMITS } from '../../../shared/preview';
import type { EventBus } from '../events/bus';
import { boundWarning, jsonBytes } from '../safety';
import { DIFFS_MAX_BYTES } from '../safety/limits';
import type { AuditEventInput, Store } from '../store';
import type { PendingQueue, PendingView } from './pending';

export interface PreviewRun {
  sessionId: string;
  /** The command exactly as the agent will run it (its raw input, never its title). */
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Aborted when the request ends first: the run stops and its result is not wanted. */
  signal: AbortSignal;
}

/** Runs one command in a throwaway view of its session and says what it changed there. */
export type Previewer = (run: PreviewRun) => Promise<CommandPreview>;

export interface PreviewOptions {
  run: Previewer;
  /** Read for each request, so a settings change applies to the next one. */
  settingsFor: (agentId: string) => { enabled: boolean; timeoutMs: number };
  /** Runs at once (each a process tree in its own namespaces); more wait their turn. Default 2. */
  concurrency?: number;
  /** How long past its bound a run may take to end before it is given up. Default 10 s. */
  overrunMs?: number;
}

const OVERRUN_MS = 10_000;
const DEFAULT_CONCURRENCY = 2;

interface Job {
  view: PendingView;
  controller: AbortController;
  command: string;
  cwd: string;
  timeoutMs: number;
}

/** Where a request's preview starts: absent for a request with no command. */
export function initialPreview(
  approval: Pick<PendingApproval, 'command'>,
  settings: { enabled: boolean; timeoutMs: number },
): CommandPreview | undefined {
  const { command } = approval;
  if (!command) return undefined;
  // A title is the agent's description: running it would preview something else than what runs.
  if (command.source !== 'rawInput')
    return emptyPreview('not_previewed', 'title_only', settings.timeoutMs);
  if (!settings.enabled) return emptyPreview('not_previewed', 'off', settings.timeoutMs);
  return emptyPreview('running', null, settings.timeoutMs);
}

/** A warning is listed once, however many times the request and its preview found it. */
function mergeWarnings(first: readonly Warning[], more: readonly Warning[]): Warning[] {
  const key = (w: Warning) => `${w.code}\u0000${w.where}\u0000${w.message}`;
  const seen = new Set(first.map(key));
  return [...first, ...more.filter((w) => !seen.has(key(w)) && seen.add(key(w)))];
}

const clipDetail = (text: string) => text.slice(0, PREVIEW_LIMITS.reason);

/** What the previewer answered, as a preview that is finished: anything else is "unavailable". */
function finished(result: unknown, timeoutMs: number): CommandPreview {
  const parsed = CommandPreview.safeParse(result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'unreadable';
    return emptyPreview('unavailable', 'system', timeoutMs, clipDetail(`bad preview (${where})`));
  }
  if (parsed.data.state === 'running')
    return emptyPreview('unavailable', 'system', timeoutMs, 'the preview never finished');
  // What the command wrote is the agent's text: bounded as the request's own diffs and warnings are.
  const diffs = [...parsed.data.diffs];
  while (diffs.length > 0 && jsonBytes(diffs) > DIFFS_MAX_BYTES) diffs.pop();
  return { ...parsed.data, diffs, warnings: parsed.data.warnings.map(boundWarning) };
}

/** The audit's record of a preview: what it found in counts and hosts, not the diffs themselves. */
function previewedEvent(approval: PendingApproval, preview: CommandPreview): AuditEventInput {
  return {
    type: 'command_previewed',
    requestId: approval.requestId,
    sessionId: approval.sessionId,
    agentId: approval.agentId,
    payload: {
      state: preview.state,
      reason: preview.reason,
      detail: preview.detail,
      counts: preview.counts,
      hosts: preview.hosts,
      warnings: preview.warnings.map((w) => w.code),
      exitCode: preview.exitCode,
      durationMs: preview.durationMs,
      timeoutMs: preview.timeoutMs,
    },
  };
}

export class PreviewStage {
  private active = 0;
  private readonly queue: Job[] = [];
  private readonly concurrency: number;

  constructor(
    private readonly options: PreviewOptions,
    private readonly deps: { store: Pick<Store, 'recordEvent'>; bus: EventBus },
    /** The pipeline: the request as shown, and the rules again for an allow that waits for it. */
    private readonly host: { pending: Pick<PendingQueue, 'update'>; rejudgePending(): number },
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  }

  /** Gives a request about to be asked the preview it starts with, by the settings in force now. */
  prepare(view: PendingView): void {
    const { whole } = view.judged;
    const preview = initialPreview(whole, this.options.settingsFor(whole.agentId));
    if (!preview) return;
    view.approval = { ...view.approval, preview };
    view.judged.whole = { ...whole, preview };
  }

  /**
   * Starts the preview of a request now shown to a person (or records why there is none), beside
   * it and never before it: the countdown runs meanwhile. Returns what to call when it ends.
   */
  start(view: PendingView): () => void {
    const { approval } = view;
    // The command as it will run, not the copy cut to be shown.
    const { command } = view.judged.whole;
    const preview = approval.preview;
    if (!preview || !command) return () => {};
    if (preview.state !== 'running') {
      this.record(previewedEvent(approval, preview));
      return () => {};
    }
    const controller = new AbortController();
    const job: Job = {
      view,
      controller,
      command: command.command,
      // The folder the agent stated (resolved against the session's); else the session's own.
      cwd: command.cwd && isAbsolute(command.cwd) ? command.cwd : approval.cwd,
      timeoutMs: preview.timeoutMs,
    };
    this.queue.push(job);
    this.pump();
    return () => {
      controller.abort();
      // Still waiting its turn: it never runs.
      const at = this.queue.indexOf(job);
      if (at < 0) return;
      this.queue.splice(at, 1);
      this.dropped(job, 0);
    };
  }

  /** A store that closed under a run (Gatehouse stopping) loses that record, not the process. */
  private record(event: AuditEventInput): void {
    try {
      this.deps.store.recordEvent(event, { soon: true });
    } catch {
      // Closed: nothing is waiting on this request any more.
    }
  }

  private pump(): void {
    while (this.active < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active++;
      void this.execute(job).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  /**
   * Settles when the previewer has, so an abandoned run holds its place until it ends; one that
   * outlives its bound by OVERRUN_MS is given up (stopped, read as cut short) and frees its place.
   */
  private async execute(job: Job): Promise<void> {
    const { controller, timeoutMs } = job;
    const started = Date.now();
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const overran = new Promise<{ overran: true }>((resolve) => {
      watchdog = setTimeout(
        () => {
          controller.abort();
          resolve({ overran: true });
        },
        timeoutMs + (this.options.overrunMs ?? OVERRUN_MS),
      );
      watchdog.unref?.();
    });
    const run = this.options
      .run({
        sessionId: job.view.approval.sessionId,
        command: job.command,
        cwd: job.cwd,
        timeoutMs,
        signal: controller.signal,
      })
      .then(
        (result) => ({ preview: finished(result, timeoutMs) }),
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          return { preview: emptyPreview('unavailable', 'system', timeoutMs, clipDetail(message)) };
        },
      );
    const outcome = await Promise.race([run, overran]);
    clearTimeout(watchdog);
    const durationMs = Date.now() - started;
    if ('overran' in outcome) {
      const detail = 'the preview did not end at its bound';
      this.finish(
        job,
        { ...emptyPreview('incomplete', 'time', timeoutMs, detail), durationMs },
        durationMs,
      );
    } else if (controller.signal.aborted) {
      this.dropped(job, durationMs);
    } else {
      this.finish(job, outcome.preview, durationMs);
    }
  }

  /** The request ended before its preview did: nothing of the run is kept but that it was dropped. */
  private dropped(job: Job, durationMs: number): void {
    const { approval } = job.view;
    this.record({
      type: 'command_preview_dropped',
      requestId: approval.requestId,
      sessionId: approval.sessionId,
      agentId: approval.agentId,
      payload: { reason: 'the request ended before its preview finished', durationMs },
    });
  }

  private finish(job: Job, preview: CommandPreview, durationMs: number): void {
    const { view } = job;
    const { requestId } = view.approval;
    // The rules read the whole request; the danger and urgency paths read the warnings.
    const whole = view.judged.whole;
    view.judged.whole = {
      ...whole,
      preview,
      warnings: mergeWarnings(whole.warnings, preview.warnings),
    };
    const shown = this.host.pending.update(requestId, {
      preview,
      warnings: mergeWarnings(view.approval.warnings, preview.warnings),
    });
    if (!shown) {
      this.dropped(job, durationMs);
      return;
    }
    this.record(previewedEvent(shown, preview));
    this.deps.bus.publish({ type: 'permission_previewed', approval: shown });
    this.host.rejudgePending();
  }
}
