// ACP `toolCall` (a ToolCallUpdate) → ToolCallSnapshot. The SDK has checked the shape, but every
// value comes from the agent, so each field is re-read defensively and bounded. Nothing is
// rewritten: a value is kept verbatim, cut with a visible marker, or dropped when it is not the
// type ACP defines (the audit keeps rawInput and content exactly as received).
import { ToolKind, type ToolCallSnapshot } from '../../../shared/domain';
import { commandFromRawInput } from './command';
import { JudgedPaths } from './judged-paths';
import { PATH_MAX_CHARS, TITLE_MAX_CHARS, TOOL_CALL_ID_MAX_CHARS } from './limits';
import { excerpt, isRecord, ownField, stringField, truncateWithMarker } from './text';

const TOOL_KINDS: ReadonlySet<string> = new Set<string>(ToolKind.options);

/** Prefix of titles Gatehouse writes itself because the agent sent none. */
export const SYNTHESIZED_TITLE_PREFIX = 'Untitled';

/**
 * Normalizes an ACP tool call for display, rules and audit. Never throws.
 *
 * - `kind`: the agent's kind if ACP defines it, otherwise 'other'. The kind is never inferred
 *   from rawInput: a guess would put words in the agent's mouth, and the rule layer must judge
 *   what the agent declared. The command/diff extraction looks at rawInput whatever the kind.
 * - `title`: the agent's title verbatim and whole (invisible characters included; warnings are
 *   computed on all of it, and boundApproval cuts it for display). Missing or blank → a neutral
 *   description built from the raw input, starting with "Untitled".
 * - `locations`: entries with a string path (non-empty) kept in order, exact duplicates dropped,
 *   paths cut at PATH_MAX_CHARS with a marker, `line` kept only as a non-negative integer, at most
 *   MAX_LOCATIONS and MAX_LOCATIONS_CHARS of paths; how many more there were is kept in
 *   `locationsDropped`. Paths are not trimmed or resolved: a trailing space is a different file.
 * - `rawInput`, `content`: passed through as received (content must be an array, else []).
 */
export function normalizeToolCall(raw: unknown): ToolCallSnapshot {
  const record = isRecord(raw) ? raw : {};
  const rawId = ownField(record, 'toolCallId');
  const toolCallId = truncateWithMarker(
    typeof rawId === 'string' ? rawId : typeof rawId === 'number' ? String(rawId) : '',
    TOOL_CALL_ID_MAX_CHARS,
  );
  const rawKind = stringField(record, 'kind');
  const kind: ToolKind =
    rawKind !== undefined && TOOL_KINDS.has(rawKind) ? (rawKind as ToolKind) : 'other';
  const rawInput = ownField(record, 'rawInput');
  const contentField = ownField(record, 'content');
  const content: unknown[] = Array.isArray(contentField) ? contentField : [];
  const { locations, dropped } = normalizeLocations(ownField(record, 'locations'));

  const agentTitle = stringField(record, 'title');
  const title =
    agentTitle !== undefined && agentTitle.trim() !== ''
      ? agentTitle
      : synthesizedTitle({ kind, rawInput, locations, content });

  return {
    toolCallId,
    kind,
    title,
    locations,
    ...(dropped > 0 ? { locationsDropped: dropped } : {}),
    rawInput,
    content,
  };
}

/**
 * The title Gatehouse writes for a tool call that came without one. Deterministic, so a check can
 * tell a synthesized title (which makes no claim) from the agent's own.
 */
export function synthesizedTitle(
  call: Pick<ToolCallSnapshot, 'kind' | 'rawInput' | 'locations' | 'content'>,
): string {
  return truncateWithMarker(
    synthesizeTitle(call.kind, call.rawInput, call.locations, call.content),
    TITLE_MAX_CHARS,
  );
}

function normalizeLocations(value: unknown): {
  locations: ToolCallSnapshot['locations'];
  dropped: number;
} {
  const locations: ToolCallSnapshot['locations'] = [];
  if (!Array.isArray(value)) return { locations, dropped: 0 };
  const seen = new Set<string>();
  const judged = new JudgedPaths();
  for (const item of value) {
    if (!isRecord(item)) continue;
    const path = stringField(item, 'path');
    if (path === undefined || path === '') continue;
    const rawLine = ownField(item, 'line');
    const line =
      typeof rawLine === 'number' && Number.isSafeInteger(rawLine) && rawLine >= 0 ? rawLine : null;
    const bounded = truncateWithMarker(path, PATH_MAX_CHARS);
    const key = `${line ?? ''}\u0000${bounded}`;
    if (seen.has(key) || !judged.admit(bounded)) continue;
    seen.add(key);
    locations.push({ path: bounded, line });
  }
  return { locations, dropped: judged.dropped };
}

/** "Untitled execute request: npm test" — what the raw input says, with no interpretation. */
function synthesizeTitle(
  kind: ToolKind,
  rawInput: unknown,
  locations: ToolCallSnapshot['locations'],
  content: unknown[],
): string {
  const head = `${SYNTHESIZED_TITLE_PREFIX} ${kind} request`;
  const command = commandFromRawInput(rawInput, kind);
  if (command) return `${head}: ${excerpt(command.command, 200)}`;
  const paths = [
    ...locations.map((l) => l.path),
    ...content.flatMap((c) =>
      isRecord(c) && c['type'] === 'diff' && typeof c['path'] === 'string' ? [c['path']] : [],
    ),
  ];
  const unique = [...new Set(paths)];
  if (unique.length > 0) {
    const more = unique.length > 1 ? ` (+${unique.length - 1} more)` : '';
    return `${head}: ${excerpt(unique[0] ?? '', 200)}${more}`;
  }
  if (isRecord(rawInput)) {
    const keys = Object.keys(rawInput);
    if (keys.length > 0) {
      const shown = keys.slice(0, 8).map((k) => excerpt(k, 40));
      return `${head} with input ${shown.join(', ')}${keys.length > 8 ? ', …' : ''}`;
    }
  }
  return head;
}

/**
 * ACP sends `toolCall` in a permission request as a ToolCallUpdate: a field that is absent or
 * null leaves the tool call's earlier value unchanged. Agents rely on that (codex-acp sends no
 * title or content; opencode sends its command only in the earlier `tool_call`). Merge the last
 * known state of the tool call with the update before normalizing, or the dialog shows less than
 * the agent declared.
 */
export function mergeToolCallUpdate(previous: unknown, update: unknown): Record<string, unknown> {
  const base = isRecord(previous) ? previous : {};
  const next = isRecord(update) ? update : {};
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(base)) merged[key] = base[key];
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value === undefined || value === null) continue;
    merged[key] = value;
  }
  return merged;
}
