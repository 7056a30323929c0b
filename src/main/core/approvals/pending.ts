import type { PendingApproval } from '../../../shared/domain';

interface Entry {
  approval: PendingApproval;
  displayed: boolean;
}

/** The requests waiting for a person, in arrival order. Owned by the pipeline. */
export class PendingQueue {
  private readonly entries = new Map<string, Entry>();

  add(approval: PendingApproval): void {
    this.entries.set(approval.requestId, { approval, displayed: false });
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
    this.entries.delete(requestId);
  }

  list(): PendingApproval[] {
    return [...this.entries.values()].map((e) => e.approval);
  }

  get size(): number {
    return this.entries.size;
  }
}
