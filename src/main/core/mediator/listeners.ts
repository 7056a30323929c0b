import { logger } from '../log/logger';
import type { PermissionLateVote, PermissionMediatorEvent } from './events';

const log = logger('mediator');

export type ListenerSource = 'emit' | 'lateVote';

export interface MediatorListeners {
  /** Publishes on the session's channel. May throw; the mediator carries on. */
  emit(sessionId: string, event: PermissionMediatorEvent): void;
  /**
   * A vote on a request already decided, for the audit (decisions themselves are what `request()`
   * resolves with). May throw; the mediator carries on.
   */
  lateVote(record: PermissionLateVote): void;
  /** Where a throwing emit/lateVote is reported. Defaults to the log. */
  reportError?: (error: unknown, source: ListenerSource) => void;
}

/**
 * The mediator's calls into foreign code. Whatever a listener does, a request still resolves and
 * a vote still gets its answer, so every call is guarded and a failure only reported.
 */
export class GuardedListeners {
  private readonly reportError: NonNullable<MediatorListeners['reportError']>;

  constructor(private readonly listeners: MediatorListeners) {
    this.reportError =
      listeners.reportError ?? ((error, source) => log.error(`${source} threw`, error));
  }

  emit(sessionId: string, event: PermissionMediatorEvent): void {
    try {
      this.listeners.emit(sessionId, event);
    } catch (error) {
      this.report(error, 'emit');
    }
  }

  lateVote(record: PermissionLateVote): void {
    try {
      this.listeners.lateVote(record);
    } catch (error) {
      this.report(error, 'lateVote');
    }
  }

  private report(error: unknown, source: ListenerSource): void {
    try {
      this.reportError(error, source);
    } catch {
      // Nothing is left to tell; resolution must still go ahead.
    }
  }
}
