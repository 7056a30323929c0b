// What the session manager is given by the core: the agents, the pipeline's doors, the store,
// the bus, and the judges of reads and writes.
import type { PermissionPolicy } from '../../../shared/domain';
import type { AgentConfig } from '../../../shared/settings';
import type { ApprovalPipeline } from '../approvals/pipeline';
import type { EventBus } from '../events/bus';
import type { ProtectedEntry } from '../rules/protected-files';
import type { Store } from '../store';
import type { ClientHandlerDeps } from './client-handlers';
import type { ReadJudge } from './read-judge';

export interface SessionManagerOptions {
  agents: () => Record<string, AgentConfig>;
  defaultPolicy: () => PermissionPolicy;
  /** Takes each permission request; ends what waits when a turn is cancelled or the session ends. */
  pipeline: Pick<ApprovalPipeline, 'handle' | 'question' | 'cancelTurn' | 'endSession'>;
  store: Pick<Store, 'recordEvent' | 'recordRequest' | 'recordDecision'> &
    // Absent: no session is remembered across a restart, and none is offered for resuming.
    Partial<
      Pick<
        Store,
        'rememberSession' | 'sessionEnded' | 'saveTranscript' | 'sessionRecords' | 'keptTranscript'
      >
    >;
  bus: EventBus;
  now?: () => number;
  /** Gatehouse's own folder: no path into it reaches an agent's environment. */
  home: string;
  /**
   * Whether the session's agent may read `realPath` (when the agent's settings enable reads).
   * Absent: every read is refused.
   */
  judgeRead?: ReadJudge;
  /** Whether a write the agent asks for is what a decision allowed (approvals/coverage). */
  coverage: ClientHandlerDeps['coverage'];
  /** How long an agent has to end a cancelled turn before it is stopped. */
  cancelGraceMs: () => number;
  /** The files that run later, protected in every writable root: the default list and the settings'. */
  protectedEntries?: () => readonly ProtectedEntry[];
  /** Runs once when a session ends, whatever ended it (session grants end here). */
  onEnd?: (sessionId: string) => void;
}
