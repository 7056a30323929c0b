import type { NetworkViolation } from './network-bridge';
import type { ProtectedLabel } from './protection';
import type { ProtectedMove } from './protected-watch';
import { fileViolationsIn, networkViolationsIn, socketViolationsIn } from './violations';

/** One refusal of the sandbox, as audited and shown. */
export interface SandboxViolation {
  kind: 'file' | 'network';
  /** The path, or host:port; a network refusal of a Unix socket has its path. */
  target: string;
  path?: string;
  host?: string;
  port?: number;
  /** The errno the agent saw, why the bridge refused, or `quarantined` for a protected path moved away. */
  reason: string;
  /** A file that runs later: which entry of the protected list, what runs it, where it was moved. */
  protected?: ProtectedLabel & { movedTo?: string | null; error?: string };
  /** Reports held back by the limits since the previous one. */
  suppressed: number;
  /**
   * The agent keeps failing on this target: the report that crosses REPEATED_AFTER attempts, sent
   * even inside the minute, so that a person can be offered to allow it.
   */
  repeated: boolean;
}

export interface ViolationReporter {
  /** A piece of the agent's stderr; complete lines are searched for refusals. */
  stderr(chunk: string): void;
  /** The same for what shells inside the sandbox wrote to stderr (lines kept apart). */
  shellStderr(chunk: string): void;
  /** A connection the network bridge refused. */
  network(violation: NetworkViolation): void;
  /** A protected path that appeared and was moved into quarantine (or could not be). */
  moved(move: ProtectedMove): void;
  /** Names the protected entry of the refused paths from now on (known once the sandbox is planned). */
  labelWith(label: (path: string) => ProtectedLabel | null): void;
}

const SAME_TARGET_MS = 60_000;
/** Refusals of one target after which the agent is taken to need it. */
export const REPEATED_AFTER = 3;
/** Distinct reports per minute: a flood of new paths must not flood the audit either. */
const PER_MINUTE = 30;
const MAX_REMEMBERED = 1024;
const MAX_PARTIAL_LINE = 8 * 1024;

/**
 * Turns what the sandbox refused into reports for `sink`: the same target once a minute, at most
 * PER_MINUTE reports a minute; what is held back is counted in the next report. The refusal that
 * makes a target repeated is always reported.
 */
export function createViolationReporter(
  sink: (violation: SandboxViolation) => void,
  now: () => number = Date.now,
): ViolationReporter {
  const lastByTarget = new Map<string, number>();
  const attempts = new Map<string, number>();
  let windowStart = -Infinity;
  let inWindow = 0;
  let suppressed = 0;
  let label: (path: string) => ProtectedLabel | null = () => null;

  const report = (violation: Omit<SandboxViolation, 'suppressed' | 'repeated'>): void => {
    const at = now();
    // Each move is its own change to the project: reported even right after another of that path.
    const moved = violation.protected?.movedTo;
    const key = moved ? `moved:${moved}` : `${violation.kind}:${violation.target}`;
    const count = (attempts.get(key) ?? 0) + 1;
    attempts.delete(key);
    attempts.set(key, count);
    if (attempts.size > MAX_REMEMBERED) attempts.delete(attempts.keys().next().value!);
    const repeated = count === REPEATED_AFTER;
    const last = lastByTarget.get(key);
    if (!repeated && last !== undefined && at - last < SAME_TARGET_MS) {
      suppressed += 1;
      return;
    }
    if (at - windowStart >= 60_000) {
      windowStart = at;
      inWindow = 0;
    }
    if (inWindow >= PER_MINUTE && !repeated) {
      suppressed += 1;
      return;
    }
    inWindow += 1;
    lastByTarget.delete(key);
    lastByTarget.set(key, at);
    if (lastByTarget.size > MAX_REMEMBERED) lastByTarget.delete(lastByTarget.keys().next().value!);
    sink({ ...violation, suppressed, repeated });
    suppressed = 0;
  };

  const search = (lines: string): void => {
    for (const found of fileViolationsIn(lines)) {
      const named = label(found.path);
      report({
        kind: 'file',
        target: found.path,
        path: found.path,
        reason: found.error,
        ...(named ? { protected: named } : {}),
      });
    }
    for (const found of networkViolationsIn(lines)) {
      const target = `${found.host}:${found.port}`;
      report({
        kind: 'network',
        target,
        host: found.host,
        port: found.port,
        reason: found.reason,
      });
    }
    // A connection all the same: "Allow for this agent" on a path allows that socket.
    for (const found of socketViolationsIn(lines)) {
      report({
        kind: 'network',
        target: found.path,
        path: found.path,
        reason: 'unix-socket-closed',
      });
    }
  };
  /** Complete lines of one stream to search; each stream keeps its own unfinished line. */
  const lines = (): ((chunk: string) => void) => {
    let partial = '';
    return (chunk) => {
      const text = partial + chunk;
      const end = text.lastIndexOf('\n');
      partial = text.slice(end + 1).slice(-MAX_PARTIAL_LINE);
      if (end >= 0) search(text.slice(0, end));
    };
  };

  return {
    stderr: lines(),
    shellStderr: lines(),
    moved(move) {
      const { path, entry, runs, movedTo, error } = move;
      report({
        kind: 'file',
        target: path,
        path,
        reason: movedTo ? 'quarantined' : 'not-quarantined',
        protected: { entry, runs, movedTo, ...(error ? { error } : {}) },
      });
    },
    labelWith(fn) {
      label = fn;
    },
    network(violation) {
      report({
        kind: 'network',
        target: `${violation.host}:${violation.port}`,
        host: violation.host,
        port: violation.port,
        reason: violation.reason,
      });
    },
  };
}
