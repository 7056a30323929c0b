// A batch decision: one vote per selected request, each with its own allow_once or reject option,
// so each is decided, audited and answered on its own.
import type { PendingSummary, PermissionOption } from '../../../shared/domain';
import { approveOption, denyOption } from './queue-order';

export type BatchKind = 'approve' | 'deny';

export interface BatchVote {
  a: PendingSummary;
  option: PermissionOption;
}

/** The vote for each target; a target whose agent offered no such option is skipped, counted. */
export function planBatch(
  targets: readonly PendingSummary[],
  kind: BatchKind,
): { votes: BatchVote[]; skipped: number } {
  const votes: BatchVote[] = [];
  for (const a of targets) {
    // A question is accepted with its form's values, one at a time: a batch only declines it.
    const option = kind === 'approve' ? (a.question ? undefined : approveOption(a)) : denyOption(a);
    if (option) votes.push({ a, option });
  }
  return { votes, skipped: targets.length - votes.length };
}

/** What the person is told once the votes are in: how many went through, were skipped, failed. */
export function batchReport(
  kind: BatchKind,
  done: number,
  skipped: number,
  failures: readonly string[],
): { tone: 'info' | 'error'; text: string } {
  const verb = kind === 'approve' ? 'Approved' : 'Denied';
  const parts = [`${verb} ${done} request${done === 1 ? '' : 's'}.`];
  if (skipped > 0) {
    parts.push(
      `${skipped} skipped: the agent offered no ${kind === 'approve' ? 'allow-once' : 'reject'} option.`,
    );
  }
  if (failures.length > 0) parts.push(`${failures.length} failed: ${failures[0]}`);
  return { tone: failures.length > 0 ? 'error' : 'info', text: parts.join(' ') };
}
