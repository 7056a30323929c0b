// What one ACP value becomes in a transcript entry: read defensively (every value is the agent's)
// and bounded, so an entry never outgrows TRANSCRIPT_LIMITS whatever the agent sends.
import type { ToolCallSnapshot, ToolKind } from '../../../shared/domain';
import {
  PlanItem,
  TRANSCRIPT_LIMITS as L,
  ToolStatus,
  type TranscriptDiff,
  type TranscriptEntry,
} from '../../../shared/transcript';
import { commandFromRawInput } from '../safety/command';
import { normalizeToolCall } from '../safety/normalize';
import { isRecord, ownField, stringField, truncateWithMarker } from '../safety/text';
import { declaredDiffs } from './diffs';

export type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;
type ToolFields = Omit<ToolEntry, 'id' | 'rev' | 'at' | 'kind'>;

/** The text of an ACP content block; other blocks are named, never shown as what they carry. */
export function blockText(block: unknown): string {
  if (!isRecord(block)) return '';
  const type = stringField(block, 'type');
  if (type === 'text') return stringField(block, 'text') ?? '';
  if (type === 'resource_link') return `[link: ${stringField(block, 'uri') ?? ''}]`;
  return `[${type ?? 'content'}]`;
}

/** The plan as ACP sends it: always whole; unknown statuses read as pending. */
export function planItems(update: Record<string, unknown>): PlanItem[] {
  const entries = ownField(update, 'entries');
  if (!Array.isArray(entries)) return [];
  return entries.slice(0, L.planItems).flatMap((item) => {
    if (!isRecord(item)) return [];
    const status = PlanItem.shape.status.safeParse(ownField(item, 'status'));
    const priority = PlanItem.shape.priority.safeParse(ownField(item, 'priority'));
    return [
      {
        content: truncateWithMarker(stringField(item, 'content') ?? '', L.planItem),
        status: status.success ? status.data : 'pending',
        priority: priority.success ? priority.data : 'medium',
      },
    ];
  });
}

/** Diffs and text of a tool call's content (ACP sends it whole each time it sends it). */
function contentFields(call: ToolCallSnapshot): Pick<ToolFields, 'diffs' | 'text'> {
  const texts: string[] = [];
  for (const item of call.content) {
    if (!isRecord(item)) continue;
    const type = stringField(item, 'type');
    if (type === 'content') {
      texts.push(blockText(ownField(item, 'content')));
    } else if (type === 'terminal') {
      texts.push('[terminal output]');
    }
  }
  return { diffs: declaredDiffs(call), text: truncateWithMarker(texts.join('\n'), L.toolText) };
}

/**
 * A tool call's fields after one `tool_call` or `tool_call_update`: ACP sends only what changed,
 * so a field absent (or null) from the update keeps its earlier value.
 */
export function toolFields(
  previous: ToolFields | null,
  update: Record<string, unknown>,
): ToolFields {
  const call = normalizeToolCall(update);
  const has = (key: string) =>
    ownField(update, key) !== undefined && ownField(update, key) !== null;
  const status = ToolStatus.safeParse(ownField(update, 'status'));
  const kind: ToolKind = has('kind') || !previous ? call.kind : previous.toolKind;
  const rawCommand = has('rawInput') ? commandFromRawInput(call.rawInput, kind) : null;
  return {
    toolCallId: call.toolCallId.slice(0, 200),
    toolKind: kind,
    title: has('title') || !previous ? truncateWithMarker(call.title, L.title) : previous.title,
    status: status.success ? status.data : (previous?.status ?? 'pending'),
    locations:
      has('locations') || !previous ? call.locations.slice(0, L.locations) : previous.locations,
    ...(has('content') || !previous
      ? contentFields(call)
      : { diffs: previous.diffs, text: previous.text }),
    command: rawCommand
      ? truncateWithMarker(rawCommand.command, L.command)
      : (previous?.command ?? null),
  };
}

function diffChars(diffs: readonly TranscriptDiff[]): number {
  return diffs.reduce((sum, d) => sum + d.newText.length + (d.oldText?.length ?? 0), 0);
}

/** Characters an entry holds, for the transcript's budget (cheap: no serialisation). */
export function charsOf(entry: TranscriptEntry): number {
  switch (entry.kind) {
    case 'user':
    case 'agent':
    case 'thought':
      return entry.text.length;
    case 'plan':
      return entry.items.reduce((sum, item) => sum + item.content.length, 0);
    case 'tool':
      return (
        entry.title.length +
        entry.text.length +
        (entry.command?.length ?? 0) +
        diffChars(entry.diffs) +
        diffChars(entry.asked?.diffs ?? []) +
        (entry.asked?.command?.length ?? 0)
      );
    case 'decision':
      return entry.reason.length + (entry.title?.length ?? 0);
    case 'dropped':
    case 'too_large':
      return 0;
  }
}
