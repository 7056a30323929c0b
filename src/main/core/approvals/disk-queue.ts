// The disk facts of requests, looked up one request after the other: a request that waits for the
// disk is never overtaken by a later one, whose answer would then reach the agent first.
import type { PendingApproval } from '../../../shared/domain';
import type { DiskView } from '../safety';
import { needsDisk } from './disk-facts';

type Gather = (cwd: string, toolCall: PendingApproval['toolCall']) => Promise<DiskView>;

export class DiskQueue {
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** `gather` absent: nothing is looked up. */
  constructor(private readonly gather: Gather | undefined) {}

  /**
   * What the disk says about the request's paths; none for a request that names none (a command),
   * which then goes on at once unless an earlier request is still waiting for the disk.
   */
  async facts(cwd: string, toolCall: PendingApproval['toolCall']): Promise<DiskView | undefined> {
    const { gather } = this;
    const wanted = gather !== undefined && needsDisk(toolCall);
    if (!wanted && this.waiting === 0) return undefined;
    this.waiting++;
    const mine = this.queue.then(() => (wanted ? gather(cwd, toolCall) : undefined));
    this.queue = mine.catch(() => undefined);
    try {
      return await mine;
    } catch {
      return undefined;
    } finally {
      this.waiting--;
    }
  }
}
