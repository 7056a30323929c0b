// The sessions remembered across restarts (store/session-records.ts): each session started here is
// recorded as it opens, changes mode and ends, with its transcript kept at the end of each turn and
// when it ends; after a restart, those that ended with the core and whose agent can resume or load
// a session are listed, with their transcript, until one is taken up again.
import type { SessionInfo } from '../../../shared/domain';
import { NotFoundError } from '../errors';
import type { EventBus } from '../events/bus';
import type { SessionRecord } from '../store';
import type { Transcripts } from '../transcripts/transcripts';
import type { Session } from './session';
import type { SessionManagerOptions } from './session-manager-options';
import { recordOf, resumableInfo, resumeHow } from './session-resume';

export class RememberedSessions {
  /** Sessions that ended with Gatehouse (or with a core before it) and can be taken up again. */
  private readonly resumable = new Map<string, SessionRecord>();
  /** Those being started again: their start's failure is not their end. */
  private readonly taking = new Set<string>();
  /** Settles once the remembered sessions are read. */
  readonly restored: Promise<void>;

  constructor(
    private readonly store: SessionManagerOptions['store'],
    private readonly transcripts: Transcripts,
    private readonly bus: Pick<EventBus, 'publish'>,
    private readonly now: () => number,
    running: (sessionId: string) => boolean,
  ) {
    this.restored = this.restore(running);
  }

  /**
   * Reads the sessions a previous core left open or ended with it: those whose agent can resume or
   * load a session are listed, with their kept transcript. One core holds the data folder, so a
   * record still live was left by a core that is gone: it ended with that core.
   */
  private async restore(running: (sessionId: string) => boolean): Promise<void> {
    const { store } = this;
    if (!store.sessionRecords || !store.keptTranscript) return;
    const records = await store.sessionRecords().catch(() => []);
    for (const record of records) {
      if (running(record.sessionId)) continue;
      const endedAt = record.endedAt ?? this.now();
      if (record.state === 'live') store.sessionEnded?.(record.sessionId, 'ended', endedAt);
      const how = resumeHow(record.abilities);
      if (!how) continue;
      const ended: SessionRecord = { ...record, state: 'ended', endedAt };
      this.resumable.set(record.sessionId, ended);
      this.transcripts.restore(record.sessionId, await store.keptTranscript(record.sessionId));
      this.bus.publish({ type: 'session_state', session: resumableInfo(ended, how) });
    }
  }

  /** The remembered sessions that can be taken up, as every surface lists them. */
  listed(running: (sessionId: string) => boolean): SessionInfo[] {
    return [...this.resumable.values()].flatMap((record) => {
      const how = resumeHow(record.abilities);
      return how && !running(record.sessionId) ? [resumableInfo(record, how)] : [];
    });
  }

  /** Takes a remembered session off the list to start it again (give it back if that fails). */
  async take(sessionId: string): Promise<SessionRecord> {
    await this.restored;
    const record = this.resumable.get(sessionId);
    if (!record) throw new NotFoundError(`no session ${sessionId} to resume`);
    this.resumable.delete(sessionId);
    this.taking.add(sessionId);
    return record;
  }

  /** Its start failed (audited with who asked): it stays listed, as it was remembered. */
  giveBack(record: SessionRecord, by: object, error: Error): void {
    this.taking.delete(record.sessionId);
    this.resumable.set(record.sessionId, record);
    this.store.recordEvent({
      type: 'session_resume_failed',
      sessionId: record.sessionId,
      agentId: record.agentId,
      at: this.now(),
      payload: { by, error: error.message },
    });
  }

  /** The session runs again: from now on it is remembered as any other. */
  took(sessionId: string): void {
    this.taking.delete(sessionId);
  }

  /** What is remembered of the session, as it is now (a session started here, not an editor's). */
  remember(session: Session): void {
    if (session.via) return;
    this.store.rememberSession?.(recordOf(session, 'live', null));
  }

  /** The session's transcript, kept for a restart. */
  keepTranscript(session: Session): void {
    const kept = session.via ? null : this.transcripts.kept(session.sessionId);
    if (kept !== null) this.store.saveTranscript?.(session.sessionId, kept);
  }

  /** The session ended: with the core (it may be taken up after a restart), or for good. */
  ended(session: Session): void {
    if (session.via || !session.acpSessionId || this.taking.has(session.sessionId)) return;
    this.keepTranscript(session);
    const state = session.endReason === 'shutdown' ? 'ended' : 'closed';
    this.store.sessionEnded?.(session.sessionId, state, this.now());
  }
}
