import { summarizeApproval } from '../../../shared/approval-summary';
import type { PendingApproval, PendingSummary, VoteTally } from '../../../shared/domain';
import type { ConsensusProgress } from '../mediator';
import type { SessionContext, Verdict } from './session-context';

/** What the rules need to judge a waiting request again. */
export interface Judged {
  session: SessionContext;
  /** The whole request, as the rules judged it when it arrived. */
  whole: PendingApproval;
  /** Set once a re-judgement decided it and the mediator withdrew it. */
  verdict?: Verdict;
}

interface Entry {
  /** As clients are shown it. */
  approval: PendingApproval;
  displayed: boolean;
  judged: Judged | undefined;
}

/** A consensus request's progress as clients see it. */
export function voteTally(
  progress: Pick<ConsensusProgress, 'quorum' | 'votesNeeded' | 'voters' | 'tally'>,
): VoteTally {
  return {
    quorum: progress.quorum,
    votesNeeded: progress.votesNeeded,
    voters: progress.voters,
    perOption: { ...progress.tally },
  };
}

/**
 * The requests waiting for a person, in arrival order: as clients are shown them, and as the rules
 * judged them. Owned by the pipeline, which alone changes them (the mediator decides and keeps the
 * ballots; this is what it has announced).
 */
export class PendingQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly perSession = new Map<string, number>();

  add(approval: PendingApproval, judged?: Judged): void {
    this.remove(approval.requestId);
    this.entries.set(approval.requestId, { approval, displayed: false, judged });
    this.perSession.set(approval.sessionId, this.countFor(approval.sessionId) + 1);
  }

  get(requestId: string): PendingApproval | undefined {
    return this.entries.get(requestId)?.approval;
  }

  update(requestId: string, change: Partial<PendingApproval>): PendingApproval | undefined {
    const entry = this.entries.get(requestId);
    if (!entry) return undefined;
    entry.approval = { ...entry.approval, ...change };
    return entry.approval;
  }

  /** The waiting requests with what the rules judged, in arrival order. */
  judged(): Array<[requestId: string, judged: Judged]> {
    const out: Array<[string, Judged]> = [];
    for (const [requestId, entry] of this.entries)
      if (entry.judged) out.push([requestId, entry.judged]);
    return out;
  }

  /** The decision a re-judgement reached for this request, if one did. */
  verdictOf(requestId: string): Judged['verdict'] {
    return this.entries.get(requestId)?.judged?.verdict;
  }

  markDisplayed(requestId: string): boolean {
    const entry = this.entries.get(requestId);
    if (!entry) return false;
    entry.displayed = true;
    return true;
  }

  wasDisplayed(requestId: string): boolean {
    return this.entries.get(requestId)?.displayed ?? false;
  }

  remove(requestId: string): void {
    const entry = this.entries.get(requestId);
    if (!entry) return;
    this.entries.delete(requestId);
    const left = this.countFor(entry.approval.sessionId) - 1;
    if (left > 0) this.perSession.set(entry.approval.sessionId, left);
    else this.perSession.delete(entry.approval.sessionId);
  }

  list(): PendingApproval[] {
    return [...this.entries.values()].map((e) => e.approval);
  }

  /** The oldest `limit` requests as the queue lists them, and how many are waiting in all. */
  summaries(limit: number): { items: PendingSummary[]; total: number } {
    const items: PendingSummary[] = [];
    for (const { approval } of this.entries.values()) {
      if (items.length >= limit) break;
      items.push(summarizeApproval(approval));
    }
    return { items, total: this.entries.size };
  }

  countFor(sessionId: string): number {
    return this.perSession.get(sessionId) ?? 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
