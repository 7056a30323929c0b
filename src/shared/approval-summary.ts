// The queue's view of a pending request, built from the approval by the core (listApprovals) and
// by the renderer (from the approval an event carries), so both lists agree.
import { previewSummary } from './preview';
import { cutAt } from './utf16';
import { SUMMARY_LIMITS, type PendingApproval, type PendingSummary, type Warning } from './domain';

/** At most `max` UTF-16 units, ending with "…" when cut; never splits a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, cutAt(text, max - 1))}…`;
}

/** Every path the request touches, diffs first, without repeats. */
function pathsOf(approval: PendingApproval): string[] {
  const paths = new Set<string>();
  for (const d of approval.diffs) {
    paths.add(d.path);
    if (d.oldPath !== null) paths.add(d.oldPath);
  }
  for (const l of approval.toolCall.locations) paths.add(l.path);
  return [...paths];
}

function warningCodes(warnings: readonly Warning[]): PendingSummary['warnings'] {
  const worst = new Map<Warning['code'], Warning['severity']>();
  for (const w of warnings) {
    if (worst.get(w.code) !== 'danger') worst.set(w.code, w.severity);
  }
  return [...worst].map(([code, severity]) => ({ code, severity }));
}

export function summarizeApproval(approval: PendingApproval): PendingSummary {
  const paths = pathsOf(approval);
  return {
    requestId: approval.requestId,
    sessionId: approval.sessionId,
    agentId: approval.agentId,
    agentName: clip(approval.agentName, SUMMARY_LIMITS.agentName),
    cwd: clip(approval.cwd, SUMMARY_LIMITS.cwd),
    kind: approval.toolCall.kind,
    title: clip(approval.toolCall.title, SUMMARY_LIMITS.title),
    command: approval.command ? clip(approval.command.command, SUMMARY_LIMITS.command) : null,
    paths: paths.slice(0, SUMMARY_LIMITS.paths).map((p) => clip(p, SUMMARY_LIMITS.path)),
    pathCount: paths.length,
    warnings: warningCodes(approval.warnings),
    policy: approval.policy,
    issuedAt: approval.issuedAt,
    expiresAt: approval.expiresAt,
    tally: approval.tally,
    options: approval.options.map((o) => ({ ...o, name: clip(o.name, SUMMARY_LIMITS.optionName) })),
    truncated: (approval.cuts?.length ?? 0) > 0,
    ...(approval.preview ? { effects: previewSummary(approval.preview) } : {}),
    ...(approval.question
      ? {
          question: {
            mode: approval.question.mode,
            host: approval.question.mode === 'url' ? approval.question.host : null,
          },
        }
      : {}),
  };
}
