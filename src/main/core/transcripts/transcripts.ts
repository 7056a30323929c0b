import type { PendingApproval } from '../../../shared/domain';
import { TRANSCRIPT_LIMITS as L, Transcript, type AskedView } from '../../../shared/transcript';
import { truncateWithMarker } from '../safety/text';
import { NotFoundError } from '../errors';
import type { EventBus } from '../events/bus';
import { transcriptDiff } from './diffs';
import { SessionTranscript } from './transcript';

/** What the dialog showed: its diffs (their "before" from disk) and command, bounded as the transcript is. */
function askedView(approval: PendingApproval): AskedView {
  return {
    requestId: approval.requestId,
    // Read defensively: a listener that throws would leave the transcript half told.
    diffs: (approval.diffs ?? []).slice(0, L.diffs).map(transcriptDiff),
    command: approval.command ? truncateWithMarker(approval.command.command, L.command) : null,
  };
}

/** Transcripts kept at once; the oldest session's goes first (ended sessions are forgotten sooner). */
const MAX_TRANSCRIPTS = 256;

/**
 * Every session's transcript, kept in the core so every window, browser and phone shows the same.
 * Fed through `record` by whatever carries a session's updates (an agent Gatehouse started, an
 * editor's session through the proxy); decisions come from the bus, as every surface hears them.
 */
export class Transcripts {
  private readonly bySession = new Map<string, SessionTranscript>();
  /** Questions waiting (ACP elicitation): neither a tool call nor a decision of one. */
  private readonly questions = new Set<string>();

  constructor(
    private readonly bus: EventBus,
    private readonly now: () => number,
  ) {
    bus.subscribe((event) => {
      if (event.type === 'permission_requested') {
        const { approval } = event;
        const transcript = this.bySession.get(approval.sessionId);
        // A question is no tool call: its entry would take the place of the call it names.
        if (approval.question) this.questions.add(approval.requestId);
        if (!transcript || approval.question) return;
        transcript.ask(approval.requestId, approval.toolCall.toolCallId, approval.toolCall.title);
        // What the request shows of the tool call (some agents send its diff only here) joins it.
        transcript.update({ sessionUpdate: 'tool_call_update', ...approval.toolCall });
        transcript.shown(approval.toolCall.toolCallId, askedView(approval));
        this.changed(transcript);
      } else if (event.type === 'permission_resolved') {
        if (this.questions.delete(event.requestId)) return;
        const transcript = this.bySession.get(event.sessionId);
        transcript?.decide(
          event.requestId,
          event.reply,
          event.decider,
          event.reason,
          event.message,
        );
        if (transcript) this.changed(transcript);
      }
    });
  }

  /** Starts a session's transcript (a session that has said nothing yet has an empty one). */
  open(sessionId: string): void {
    this.transcript(sessionId);
  }

  /**
   * A session's transcript as it was kept when the session ended (JSON of its snapshot), checked
   * against the transcript's schema and bounds; one that does not fit is not taken up (false).
   */
  restore(sessionId: string, keptJson: string | null): boolean {
    let parsed;
    try {
      parsed = Transcript.safeParse(JSON.parse(keptJson ?? 'null'));
    } catch {
      return false;
    }
    if (!parsed.success || parsed.data.sessionId !== sessionId) return false;
    this.bySession.delete(sessionId);
    this.transcript(sessionId).restore(parsed.data);
    return true;
  }

  /** Whether the session's transcript is held here. */
  has(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  /** The session's transcript as kept across a restart (JSON), or null when it has none. */
  kept(sessionId: string): string | null {
    const transcript = this.bySession.get(sessionId);
    return transcript ? JSON.stringify(transcript.snapshot()) : null;
  }

  /** One ACP session/update of the session, as the agent sent it (already shape-checked). */
  record(sessionId: string, update: unknown): void {
    const transcript = this.transcript(sessionId);
    if (transcript.update(update)) this.changed(transcript);
  }

  /** Updates of the session in the order they were read, told as one change. */
  recordAll(sessionId: string, updates: readonly unknown[]): void {
    const transcript = this.transcript(sessionId);
    let changed = false;
    for (const update of updates) changed = transcript.update(update) || changed;
    if (changed) this.changed(transcript);
  }

  /** The session's flood under way has dropped `total` updates so far (one entry says so). */
  droppedUpdates(sessionId: string, total: number): void {
    const transcript = this.transcript(sessionId);
    transcript.droppedUpdates(total);
    this.changed(transcript);
  }

  /** An update of the session too large to pass on. */
  tooLarge(sessionId: string, bytes: number): void {
    const transcript = this.transcript(sessionId);
    transcript.tooLarge(bytes);
    this.changed(transcript);
  }

  /** The session's flood is over. */
  floodEnded(sessionId: string): void {
    this.bySession.get(sessionId)?.floodEnded();
  }

  /** What a person sent: a user message, as ACP itself would replay it. */
  prompted(sessionId: string, text: string): void {
    this.record(sessionId, {
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text },
    });
  }

  /** The transcript, or only the entries changed after `since`. */
  get(sessionId: string, since?: number): Transcript {
    const transcript = this.bySession.get(sessionId);
    if (!transcript) throw new NotFoundError(`no transcript for session ${sessionId}`);
    return transcript.snapshot(since);
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }

  private transcript(sessionId: string): SessionTranscript {
    let transcript = this.bySession.get(sessionId);
    if (!transcript) {
      transcript = new SessionTranscript(sessionId, this.now);
      this.bySession.set(sessionId, transcript);
      if (this.bySession.size > MAX_TRANSCRIPTS)
        this.bySession.delete(this.bySession.keys().next().value!);
    }
    return transcript;
  }

  private changed(transcript: SessionTranscript): void {
    this.bus.publish({
      type: 'transcript_changed',
      sessionId: transcript.sessionId,
      rev: transcript.rev,
    });
  }
}
