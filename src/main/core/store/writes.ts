// What the store records, the same whether the engine runs on the caller's thread or on its own:
// records are queued and committed in the next batch; the promises resolve after that commit.
import type { Decision, PendingApproval, Surface } from '../../../shared/domain';
import type { VoteRecord } from '../../../shared/history';
import type { PairedClientStore } from './paired-clients';
import type { GrantRecord } from './grant-records';
import type {
  AuditEventInput,
  DecisionMeta,
  GrantInput,
  RecordOptions,
  RequestMeta,
} from './records';
import type { PruneResult, RetentionPolicy } from './retention';
import type { SessionRecordStore } from './session-records';

export interface StoreWrites extends PairedClientStore, SessionRecordStore {
  readonly path: string;
  /**
   * Queues a request; committed with the next batch. A malformed request is refused with
   * StoreInputError (not checked again with `trusted`: see RecordOptions).
   */
  recordRequest(request: PendingApproval, meta?: RequestMeta, options?: RecordOptions): void;
  recordVote(requestId: string, vote: VoteRecord): void;
  /**
   * `soon`: an observation (what a preview or a command did) that may wait a moment for the next
   * write, to cross and commit with it (store-thread.ts, SOON_MS); a read still sees it. Nothing
   * that changes what Gatehouse allows is sent so.
   */
  recordEvent(event: AuditEventInput, options?: { soon?: boolean }): void;
  /** Records that a client showed the request to a person (HistoryDetail.displayed). */
  markDisplayed(
    requestId: string,
    by?: { at?: number; clientId?: string | null; surface?: Surface | null },
  ): void;
  /**
   * Resolves once the transaction holding this decision, and everything queued before it, has
   * committed. Rejects (the pipeline must fail closed) with StoreInputError, RecordRejectedError
   * (unknown request, option not offered, already decided) or StoreWriteError (the commit failed,
   * or the store's thread stopped before it).
   */
  recordDecision(decision: Decision, meta: DecisionMeta, options?: RecordOptions): Promise<void>;
  /** Saves a grant (the rules layer's Grant object); resolves once committed. */
  saveGrant(grant: GrantInput): Promise<GrantRecord>;
  /** Resolves false when the grant does not exist or was already revoked. */
  revokeGrant(grantId: string, options?: { at?: number; reason?: string }): Promise<boolean>;
  /** Applies the retention policy now (in chunks, letting commits through between them). */
  prune(): Promise<PruneResult>;
  /** Replaces the retention policy; pruning runs with it from now on (and once right away). */
  setRetention(policy: RetentionPolicy): void;
  /** Resolves when everything queued so far is committed. */
  flush(): Promise<void>;
  /** Flushes, then closes the database. */
  close(): Promise<void>;
}
