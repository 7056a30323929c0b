import { summarizeApproval } from '../../../shared/approval-summary';
import type { PendingApproval, PendingSummary, VoteTally } from '../../../shared/domain';
import type { ConsensusProgress, MultiClientPermissionMediator } from '../mediator';
import type { SessionContext, Verdict } from './session-context';

/** What the rules need to judge a waiting request again. */
export interface Judged {
  session: SessionContext;
  /** The whole request, as the rules judged it when it arrived. */
  whole: PendingApproval;
  /** Set once a re-judgement decided it and the mediator withdrew it. */
  verdict?: Verdict;
}

/**
 * The pipeline's part of a request waiting for a person, held by the mediator on the request's own
 * entry: there is no second map to keep in step, and it stops being listed when the request ends.
 */
export interface PendingView {
  /** As clients are shown it. */
  approval: PendingApproval;
  displayed: boolean;
  judged: Judged;
}

/** Where the views are held: the mediator, with one entry and one per-session count per request. */
export type PendingViews = Pick<
  MultiClientPermissionMediator<PendingView>,
  'views' | 'viewOf' | 'pendingCount'
>;

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
 * The requests waiting for a person, in arrival order, as clients are shown them and as the rules
 * judged them: a typed reading of the mediator's pending requests, with nothing of its own to add
 * or remove. A request the mediator ends is gone from here at once.
 */
export class PendingQueue {
  constructor(private readonly held: PendingViews) {}

  get(requestId: string): PendingApproval | undefined {
    return this.held.viewOf(requestId)?.approval;
  }

  update(requestId: string, change: Partial<PendingApproval>): PendingApproval | undefined {
    const view = this.held.viewOf(requestId);
    if (!view) return undefined;
    view.approval = { ...view.approval, ...change };
    return view.approval;
  }

  /** The waiting requests with what the rules judged, in arrival order. */
  judged(): Array<[requestId: string, judged: Judged]> {
    return Array.from(this.held.views(), (view) => [view.approval.requestId, view.judged]);
  }

  markDisplayed(requestId: string): boolean {
    const view = this.held.viewOf(requestId);
    if (!view) return false;
    view.displayed = true;
    return true;
  }

  list(): PendingApproval[] {
    return Array.from(this.held.views(), (view) => view.approval);
  }

  /** The oldest `limit` requests as the queue lists them, and how many are waiting in all. */
  summaries(limit: number): { items: PendingSummary[]; total: number } {
    const items: PendingSummary[] = [];
    for (const { approval } of this.held.views()) {
      if (items.length >= limit) break;
      items.push(summarizeApproval(approval));
    }
    return { items, total: this.size };
  }

  countFor(sessionId: string): number {
    return this.held.pendingCount(sessionId);
  }

  get size(): number {
    return this.held.pendingCount();
  }
}
