// The effects room as the core sees it: told of each allowed request, asked whether a request's
// changes can be undone, and asked to undo them — one undo of a request at a time.
import type { PendingApproval } from '../../../shared/domain';
import type { UndoOutcome, UndoStatus } from '../../../shared/effects';
import { ConflictError } from '../errors';
import { EffectsRecorder, type EffectsDeps } from './recorder';
import { undoChanges, undoStatus, type RecordedWrite } from './undo';

export interface EffectsService {
  /** Before the agent hears an allow: keeps what undo needs, starts observing a command. */
  allowed(approval: PendingApproval): Promise<void>;
  /** Whether history offers undo for the request; null when nothing was kept for it. */
  undoStatus(requestId: string, writes: readonly RecordedWrite[]): Promise<UndoStatus | null>;
  undo(
    requestId: string,
    writes: readonly RecordedWrite[],
  ): Promise<UndoOutcome & { paths: string[] }>;
  /** Waits for the comparisons under way. */
  settled(): Promise<void>;
  close(): void;
}

export function createEffects(deps: EffectsDeps): EffectsService {
  const recorder = new EffectsRecorder(deps);
  const undoing = new Set<string>();
  return {
    allowed: (approval) => recorder.allowed(approval),
    undoStatus: (requestId, writes) => undoStatus(deps.home, requestId, writes),
    async undo(requestId, writes) {
      if (undoing.has(requestId))
        throw new ConflictError('Undo refused: an undo of this request is already under way');
      undoing.add(requestId);
      try {
        return await undoChanges(deps, requestId, writes);
      } finally {
        undoing.delete(requestId);
      }
    },
    settled: () => recorder.settled(),
    close: () => recorder.close(),
  };
}
