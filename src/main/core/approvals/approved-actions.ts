// What allowed permission requests approved, per session, until a write or a command uses it:
// the new content of each file a diff showed (by hash), the files an edit named without content,
// and the command as shown. Each approval covers one write or one run.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { joinAsGiven, realPathLoose } from '../fs/containment';
import type { PendingApproval } from '../../../shared/domain';

/** More than a turn's worth of approved edits; past it the oldest approvals are forgotten. */
export const MAX_APPROVED_PER_SESSION = 256;

interface ApprovedWrite {
  kind: 'write';
  requestId: string;
  path: string;
  /** Where the path led when the request was shown (links and `..` as the kernel takes them). */
  real: string | null;
  /** sha256 of the approved new content; null when the edit named the file without content. */
  sha256: string | null;
}

interface ApprovedCommand {
  kind: 'command';
  requestId: string;
  command: string;
}

type Approved = ApprovedWrite | ApprovedCommand;

/** The approval a write used, or why none did. */
export type WriteMatch =
  | { found: 'approved'; requestId: string; sha256: string | null }
  | { found: 'moved'; requestId: string; approvedReal: string | null }
  | { found: 'differs'; requestId: string; sha256: string }
  | { found: 'none' };

export function sha256Of(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Where each path an allowed request named led when it was shown, as the disk facts found it (path
 * as named -> real path); a path missing from it is looked up when the approval is kept.
 */
export type PathsLed = ReadonlyMap<string, string | null>;

/**
 * The files an allowed request approved writing: each diff's path with the hash of its whole new
 * text (the agent's own, not the copy cut for display); an edit without diffs approves the paths
 * it names, whatever they receive. Each keeps where it led, so a link swapped in afterwards does
 * not carry the approval somewhere else.
 */
function approvedWrites(approval: PendingApproval, led: PathsLed): ApprovedWrite[] {
  const { toolCall, cwd, requestId } = approval;
  const write = (named: string, sha256: string | null): ApprovedWrite => {
    const path = resolve(cwd, named);
    const real = led.has(named) ? led.get(named)! : realPathLoose(joinAsGiven(cwd, named));
    return { kind: 'write', requestId, path, real, sha256 };
  };
  const writes: ApprovedWrite[] = [];
  for (const item of toolCall.content) {
    if (typeof item !== 'object' || item === null) continue;
    const { type, path, newText } = item as Record<string, unknown>;
    if (type !== 'diff' || typeof path !== 'string' || typeof newText !== 'string') continue;
    writes.push(write(path, sha256Of(newText)));
  }
  const hasDiffs = toolCall.content.some(
    (item) =>
      typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'diff',
  );
  if (hasDiffs || toolCall.kind !== 'edit') return writes;
  return toolCall.locations.map((l) => write(l.path, null));
}

export class ApprovedActions {
  private readonly bySession = new Map<string, Approved[]>();

  /** Keeps what an allowed request approved, for the write or run that follows. */
  record(approval: PendingApproval, led: PathsLed = new Map()): void {
    const approved: Approved[] = approvedWrites(approval, led);
    if (approval.command) {
      approved.push({
        kind: 'command',
        requestId: approval.requestId,
        command: approval.command.command,
      });
    }
    if (approved.length === 0) return;
    const list = this.bySession.get(approval.sessionId) ?? [];
    list.push(...approved);
    list.splice(0, Math.max(0, list.length - MAX_APPROVED_PER_SESSION));
    this.bySession.set(approval.sessionId, list);
  }

  /**
   * Uses up the approval of writing `sha256` to `path` (an absolute path) that leads to `real` now:
   * the same content first, then an edit that named the path without content. A path approved with
   * other content only is `differs`, and that approval stays for the content it named; one that led
   * elsewhere when it was approved is `moved`, and is used up: its path is not what was shown.
   */
  takeWrite(sessionId: string, path: string, sha256: string, real: string | null): WriteMatch {
    const list = this.bySession.get(sessionId) ?? [];
    const forPath = list.filter((a): a is ApprovedWrite => a.kind === 'write' && a.path === path);
    const match =
      forPath.find((a) => a.sha256 === sha256) ?? forPath.find((a) => a.sha256 === null);
    if (match) {
      list.splice(list.indexOf(match), 1);
      if (real === null || match.real !== real)
        return { found: 'moved', requestId: match.requestId, approvedReal: match.real };
      return { found: 'approved', requestId: match.requestId, sha256: match.sha256 };
    }
    const latest = forPath.at(-1);
    return latest?.sha256
      ? { found: 'differs', requestId: latest.requestId, sha256: latest.sha256 }
      : { found: 'none' };
  }

  /** Uses up the approval of running exactly `command`; the request that approved it, or null. */
  takeCommand(sessionId: string, command: string): string | null {
    const list = this.bySession.get(sessionId) ?? [];
    const match = list.find((a) => a.kind === 'command' && a.command === command);
    if (!match) return null;
    list.splice(list.indexOf(match), 1);
    return match.requestId;
  }

  /** Nothing a session approved outlives it. */
  endSession(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
