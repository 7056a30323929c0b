// One session's transcript, rebuilt from what happened in it: ACP session/update notifications
// (the user's prompt arrives as a user_message_chunk too), and the decisions of its requests.
import type { AgentReply, Decider } from '../../../shared/domain';
import {
  outcomeOf,
  type AskedView,
  TRANSCRIPT_LIMITS as L,
  type Transcript,
  type TranscriptEntry,
} from '../../../shared/transcript';
import { isRecord, ownField, stringField, truncateWithMarker } from '../safety/text';
import { blockText, charsOf, planItems, toolFields, type ToolEntry } from './fields';

type TextKind = 'user' | 'agent' | 'thought';
type TextEntry = Extract<TranscriptEntry, { kind: TextKind }>;
type PlanEntry = Extract<TranscriptEntry, { kind: 'plan' }>;
type DroppedEntry = Extract<TranscriptEntry, { kind: 'dropped' }>;
type NewEntry = TranscriptEntry extends infer E
  ? E extends TranscriptEntry
    ? Omit<E, 'id' | 'rev' | 'at'>
    : never
  : never;

const TEXT_UPDATES: Record<string, TextKind> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
};
/** Requests shown to someone whose decision has not come yet (one per waiting request). */
const MAX_ASKED = 256;

export class SessionTranscript {
  private entries: TranscriptEntry[] = [];
  private readonly chars = new Map<TranscriptEntry, number>();
  private total = 0;
  private nextId = 0;
  private revision = 0;
  private dropped = 0;
  /** The message being streamed: chunks of the same kind join it. */
  private open: TextEntry | null = null;
  /** The plan of the current turn: a new plan replaces it. */
  private plan: PlanEntry | null = null;
  /** Where the flood under way dropped updates: its count grows in place until the flood ends. */
  private flood: DroppedEntry | null = null;
  private readonly tools = new Map<string, ToolEntry>();
  private readonly asked = new Map<string, { toolCallId: string; title: string }>();
  /** Tool calls whose request was decided: a later change to what they do is marked. */
  private readonly decided = new Set<string>();

  constructor(
    readonly sessionId: string,
    private readonly now: () => number,
  ) {}

  /**
   * Takes up what a kept snapshot told (a session resumed after a restart). Its tool calls are not
   * taken up: an update naming one of them later is a new entry, so nothing told then is rewritten.
   */
  restore(kept: Transcript): void {
    for (const entry of kept.entries) {
      this.entries.push(entry);
      this.measure(entry);
    }
    this.revision = Math.max(this.revision, kept.rev);
    this.nextId = Math.max(this.nextId, kept.firstId, ...kept.entries.map((e) => e.id + 1));
    this.dropped += kept.dropped;
  }

  /** The latest change. */
  get rev(): number {
    return this.revision;
  }

  /** Applies one session/update; false when it changes nothing the transcript shows. */
  update(update: unknown): boolean {
    if (!isRecord(update)) return false;
    const type = stringField(update, 'sessionUpdate') ?? '';
    const textKind = TEXT_UPDATES[type];
    if (textKind) return this.appendText(textKind, blockText(ownField(update, 'content')));
    if (type === 'plan') return this.setPlan(planItems(update));
    if (type === 'tool_call' || type === 'tool_call_update') return this.tool(update);
    return false;
  }

  /** The flood under way has dropped `total` updates so far. */
  droppedUpdates(total: number): void {
    const flood = this.flood;
    if (flood && this.chars.has(flood)) this.change(flood, () => (flood.updates = total));
    else this.flood = this.add({ kind: 'dropped', updates: total }) as DroppedEntry;
  }

  /** An update of `bytes` never reached the transcript: an entry says so where it would stand. */
  tooLarge(bytes: number): void {
    this.add({ kind: 'too_large', bytes });
  }

  /** The flood is over: a later one is told in an entry of its own, where it happens. */
  floodEnded(): void {
    this.flood = null;
  }

  /** A request of this session was shown to someone: its decision will name the tool call. */
  ask(requestId: string, toolCallId: string, title: string): void {
    this.asked.set(requestId, { toolCallId, title: truncateWithMarker(title, L.title) });
    if (this.asked.size > MAX_ASKED) this.asked.delete(this.asked.keys().next().value!);
  }

  /** What the request showed of its tool call (after the call's own entry took the request's view). */
  shown(toolCallId: string, view: AskedView): void {
    const tool = this.tools.get(toolCallId);
    if (tool) this.change(tool, () => (tool.asked = view));
  }

  decide(
    requestId: string,
    reply: AgentReply,
    decider: Decider,
    reason: string,
    message?: string,
  ): void {
    const asked = this.asked.get(requestId);
    this.asked.delete(requestId);
    const outcome = outcomeOf(reply);
    const tool = asked ? this.tools.get(asked.toolCallId) : undefined;
    if (asked && tool) {
      this.decided.add(asked.toolCallId);
      if (this.decided.size > MAX_ASKED) this.decided.delete(this.decided.values().next().value!);
      this.change(tool, () => (tool.decided = outcome));
    }
    this.add({
      kind: 'decision',
      requestId,
      toolCallId: asked?.toolCallId ?? null,
      title: asked?.title ?? null,
      outcome,
      optionKind: reply.outcome === 'selected' ? reply.optionKind : null,
      decider,
      reason: truncateWithMarker(reason, L.reason),
      ...(message ? { message } : {}),
    });
  }

  /** The entries changed after `since` (all of them for 0), and where the transcript stands. */
  snapshot(since = 0): Transcript {
    return {
      sessionId: this.sessionId,
      rev: this.revision,
      firstId: this.entries[0]?.id ?? this.nextId,
      dropped: this.dropped,
      entries: this.entries.filter((e) => e.rev > since),
    };
  }

  private appendText(kind: TextKind, text: string): boolean {
    if (text === '') return false;
    let rest = text;
    while (rest !== '') {
      const open = this.open?.kind === kind ? this.open : null;
      const room = open ? L.text - open.text.length : 0;
      if (open && room > 0) {
        this.change(open, () => (open.text += rest.slice(0, room)));
        rest = rest.slice(room);
      } else {
        const created = this.add({ kind, text: rest.slice(0, L.text) }) as TextEntry;
        rest = rest.slice(L.text);
        this.open = created;
        // A person's message starts a turn: its plan is a new one.
        if (kind === 'user') this.plan = null;
      }
    }
    return true;
  }

  private setPlan(items: PlanEntry['items']): boolean {
    const plan = this.plan;
    if (plan && this.chars.has(plan)) this.change(plan, () => (plan.items = items));
    else this.plan = this.add({ kind: 'plan', items }) as PlanEntry;
    return true;
  }

  private tool(update: Record<string, unknown>): boolean {
    const id = ownField(update, 'toolCallId');
    if (typeof id !== 'string' || id === '') return false;
    const known = this.tools.get(id);
    if (known) {
      const { id: _id, rev: _rev, at: _at, kind: _kind, ...previous } = known;
      const next = toolFields(previous, update);
      const changed =
        this.decided.has(id) &&
        known.asked !== undefined &&
        changesWhatWasAsked(known, next, update);
      this.change(known, () => {
        Object.assign(known, next);
        if (changed) known.changedAfterDecision = true;
      });
    } else {
      this.tools.set(id, this.add({ kind: 'tool', ...toolFields(null, update) }) as ToolEntry);
    }
    return true;
  }

  private add(fields: NewEntry): TranscriptEntry {
    this.revision += 1;
    const entry = {
      ...fields,
      id: this.nextId++,
      rev: this.revision,
      at: this.now(),
    } as TranscriptEntry;
    this.entries.push(entry);
    // A message after anything else is a new message, in its place in time.
    this.open = null;
    this.measure(entry);
    return entry;
  }

  private change(entry: TranscriptEntry, apply: () => void): void {
    apply();
    this.revision += 1;
    entry.rev = this.revision;
    this.measure(entry);
  }

  private measure(entry: TranscriptEntry): void {
    const size = charsOf(entry);
    this.total += size - (this.chars.get(entry) ?? 0);
    this.chars.set(entry, size);
    // The newest entry stays, whatever its size: it is bounded on its own.
    while (this.entries.length > 1 && (this.entries.length > L.entries || this.total > L.chars)) {
      this.drop(this.entries.shift()!);
    }
  }

  private drop(entry: TranscriptEntry): void {
    this.total -= this.chars.get(entry) ?? 0;
    this.chars.delete(entry);
    this.dropped += 1;
    if (this.open === entry) this.open = null;
    if (this.plan === entry) this.plan = null;
    if (this.flood === entry) this.flood = null;
    if (entry.kind !== 'tool') return;
    for (const [key, tool] of this.tools) if (tool === entry) this.tools.delete(key);
  }
}

/**
 * An update that declares a diff the person was not shown, or another command than the one the
 * call had. An update with the call's output instead of its diff (as agents send on completion)
 * changes nothing that was asked.
 */
function changesWhatWasAsked(
  known: ToolEntry,
  next: Pick<ToolEntry, 'diffs' | 'command'>,
  update: Record<string, unknown>,
): boolean {
  const asked = known.asked?.diffs ?? [];
  const newDiff =
    ownField(update, 'content') != null &&
    next.diffs.some((d) => !asked.some((a) => a.path === d.path && a.newText === d.newText));
  const newCommand =
    ownField(update, 'rawInput') != null &&
    next.command !== null &&
    known.command !== null &&
    next.command !== known.command;
  return newDiff || newCommand;
}
