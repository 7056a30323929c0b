// File changes of a request, prepared for the diff view: classified, binary-detected and bounded.
//
// Sources, per agent (checked against their sources):
// - `diff` content items { path, oldText?, newText } (ACP). claude-agent-acp: Write → oldText null
//   (whole new file), Edit → old_string/new_string fragments. Gemini/Qwen: whole file before and
//   after, oldText '' for a new file (Gemini's `_meta.kind: 'delete'` only means "emptied"; Gemini
//   never deletes, so it is not read as a delete).
// - Codex (zed-industries/codex-acp) patch approvals: rawInput.changes { [path]: { type: 'add' |
//   'delete' | 'update', move_path? } }; a delete is an explicit delete and an update with
//   move_path is a move whose diff item is keyed by the new path.
// - kind 'delete' without diff content: one entry per location (or rawInput path field).
// - kind 'move': rawInput source/destination, old_path/new_path, oldPath/newPath, from/to,
//   src/dst, sourcePath/destinationPath, source_path/destination_path.
import type { PreparedDiff, ToolCallSnapshot } from '../../../shared/domain';
import { looksBinary } from './binary';
import { diffHash } from './hash';
import {
  DEFAULT_DIFF_MAX_BYTES,
  DEFAULT_DIFF_MAX_LINES,
  MAX_LOCATIONS,
  PATH_MAX_CHARS,
} from './limits';
import {
  isRecord,
  isStringArray,
  ownField,
  stringField,
  truncateWithMarker,
  type JsonRecord,
} from './text';

export interface PrepareDiffsOptions {
  /** Per side, in UTF-8 bytes. Default 1 MiB. */
  maxBytes?: number;
  /** Per side. Default 100 000. */
  maxLines?: number;
  /** All sides of all entries together, in UTF-8 bytes, in order: later texts get what is left. */
  totalBytes?: number;
}

const MOVE_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['source', 'destination'],
  ['old_path', 'new_path'],
  ['oldPath', 'newPath'],
  ['source_path', 'destination_path'],
  ['sourcePath', 'destinationPath'],
  ['from_path', 'to_path'],
  ['src', 'dst'],
  ['from', 'to'],
];

const DELETE_PATH_KEYS = ['path', 'file_path', 'filePath', 'filepath', 'absolute_path', 'target'];
const DELETE_LIST_KEYS = ['paths', 'file_paths', 'files'];

/**
 * Classifies each change: `delete` when the new side is empty and the request says delete (kind
 * 'delete' or a Codex delete); `move` when the old path differs from the path; `create` when the
 * old side is null/absent/''; `modify` otherwise. Texts of binary sides are null; texts beyond the
 * limits are cut at a line boundary (mid-line only when a single line is over the byte limit) and
 * `truncated` is set, while the byte/line counts and the hash always describe the full texts.
 * Entries without content (a delete or move known only from paths) have null texts and zero sizes.
 * Never throws, whatever `toolCall` holds.
 */
export function prepareDiffs(
  toolCall: ToolCallSnapshot,
  options: PrepareDiffsOptions = {},
): PreparedDiff[] {
  const maxBytes = limit(options.maxBytes, DEFAULT_DIFF_MAX_BYTES);
  const maxLines = limit(options.maxLines, DEFAULT_DIFF_MAX_LINES);
  const budget = { left: limit(options.totalBytes, Number.POSITIVE_INFINITY) };
  const call: JsonRecord = isRecord(toolCall) ? (toolCall as unknown as JsonRecord) : {};
  const kind = stringField(call, 'kind');
  const rawInput = ownField(call, 'rawInput');
  const contentField = ownField(call, 'content');
  const content = Array.isArray(contentField) ? contentField : [];
  const codex = codexChanges(rawInput);
  const move = kind === 'move' ? movePair(rawInput) : null;

  const out: PreparedDiff[] = [];
  const covered = new Set<string>();
  for (const item of content) {
    // The rules judge no more (diffsNotPrepared counts the rest); preparing 50,000 took half a second.
    if (out.length >= MAX_LOCATIONS) break;
    const path = diffPathOf(item);
    if (path === undefined) continue;
    const oldRaw = ownField(item, 'oldText');
    const newRaw = ownField(item, 'newText');
    const oldText = typeof oldRaw === 'string' ? oldRaw : null;
    const newText = typeof newRaw === 'string' ? newRaw : null;
    const oldPath =
      codex.moves.get(path) ?? (move && move.destination === path ? move.source : null);
    const explicitDelete = kind === 'delete' || codex.deletes.has(path);
    const change: PreparedDiff['change'] =
      explicitDelete && (newText === null || newText === '')
        ? 'delete'
        : oldPath !== null && oldPath !== path
          ? 'move'
          : oldText === null || oldText === ''
            ? 'create'
            : 'modify';
    covered.add(path);
    out.push(
      entry(
        path,
        change === 'move' ? oldPath : null,
        change,
        oldText,
        newText,
        maxBytes,
        maxLines,
        budget,
      ),
    );
  }

  if (move && !covered.has(move.destination)) {
    out.push(entry(move.destination, move.source, 'move', null, null, maxBytes, maxLines, budget));
  }
  if (kind === 'delete') {
    for (const path of deletePaths(call, rawInput)) {
      if (covered.has(path)) continue;
      covered.add(path);
      out.push(entry(path, null, 'delete', null, null, maxBytes, maxLines, budget));
    }
  }
  return out;
}

/** How many of the call's diff items prepareDiffs leaves out: those past MAX_LOCATIONS. */
export function diffsNotPrepared(toolCall: ToolCallSnapshot): number {
  let diffs = 0;
  for (const item of toolCall.content) if (diffPathOf(item) !== undefined) diffs++;
  return Math.max(0, diffs - MAX_LOCATIONS);
}

/** A content item of type `diff`, whatever else it holds. */
export function isDiffItem(item: unknown): item is JsonRecord {
  return isRecord(item) && item['type'] === 'diff';
}

/** The path of a diff item; undefined for anything else, or a diff without one. */
function diffPathOf(item: unknown): string | undefined {
  return isDiffItem(item) ? stringField(item, 'path') : undefined;
}

interface Budget {
  left: number;
}

function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.floor(value)
    : fallback;
}

function entry(
  path: string,
  oldPath: string | null,
  change: PreparedDiff['change'],
  oldText: string | null,
  newText: string | null,
  maxBytes: number,
  maxLines: number,
  budget: Budget,
): PreparedDiff {
  const before = prepareSide(oldText, maxBytes, maxLines, budget);
  const after = prepareSide(newText, maxBytes, maxLines, budget);
  return {
    path: truncateWithMarker(path, PATH_MAX_CHARS),
    oldPath: oldPath === null ? null : truncateWithMarker(oldPath, PATH_MAX_CHARS),
    change,
    binary: before.binary || after.binary,
    oldText: before.text,
    newText: after.text,
    truncated: before.truncated || after.truncated,
    oldBytes: before.bytes,
    newBytes: after.bytes,
    oldLines: before.lines,
    newLines: after.lines,
    hash: diffHash(oldText, newText),
  };
}

interface Side {
  text: string | null;
  bytes: number;
  lines: number;
  truncated: boolean;
  binary: boolean;
}

function prepareSide(text: string | null, sideMax: number, maxLines: number, budget: Budget): Side {
  if (text === null) return { text: null, bytes: 0, lines: 0, truncated: false, binary: false };
  const bytes = Buffer.byteLength(text, 'utf8');
  const lines = countLines(text);
  if (looksBinary(text)) return { text: null, bytes, lines, truncated: false, binary: true };
  const maxBytes = Math.min(sideMax, budget.left);
  if (bytes <= maxBytes && lines <= maxLines) {
    budget.left -= bytes;
    return { text, bytes, lines, truncated: false, binary: false };
  }
  const kept = cut(text, maxBytes, maxLines);
  budget.left -= Buffer.byteLength(kept, 'utf8');
  return { text: kept, bytes, lines, truncated: true, binary: false };
}

/** Lines as an editor counts them: '' → 0, 'a' → 1, 'a\n' → 1, 'a\nb' → 2. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.charCodeAt(text.length - 1) === 0x0a ? count : count + 1;
}

/** The longest prefix within both limits, ending at a line boundary when there is one. */
function cut(text: string, maxBytes: number, maxLines: number): string {
  let end = text.length;
  if (maxLines === 0) return '';
  let newlines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    newlines++;
    if (newlines === maxLines) {
      end = at + 1;
      break;
    }
  }
  // UTF-16 units are at most 3 UTF-8 bytes each (pairs: 4 bytes for 2 units), so the walk is
  // skipped when the prefix cannot be over the byte limit.
  if (end * 3 > maxBytes) {
    let bytes = 0;
    let i = 0;
    while (i < end) {
      const c = text.charCodeAt(i);
      let size = 3;
      let width = 1;
      if (c < 0x80) size = 1;
      else if (c < 0x800) size = 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          size = 4;
          width = 2;
        }
      }
      if (bytes + size > maxBytes) break;
      bytes += size;
      i += width;
    }
    end = Math.min(end, i);
  }
  if (end === 0) return '';
  if (end < text.length && text.charCodeAt(end - 1) !== 0x0a) {
    const lastNewline = text.lastIndexOf('\n', end - 1);
    // A single line longer than the byte limit is cut mid-line rather than shown as nothing.
    if (lastNewline !== -1) end = lastNewline + 1;
  }
  return text.slice(0, end);
}

interface CodexChanges {
  /** new path → old path */
  moves: Map<string, string>;
  deletes: Set<string>;
}

/** Codex's rawInput.changes, internally tagged ({type}) or externally tagged ({delete: {…}}). */
function codexChanges(rawInput: unknown): CodexChanges {
  const moves = new Map<string, string>();
  const deletes = new Set<string>();
  const changes = isRecord(rawInput) ? ownField(rawInput, 'changes') : undefined;
  if (!isRecord(changes)) return { moves, deletes };
  for (const path of Object.keys(changes)) {
    const change = changes[path];
    if (!isRecord(change)) continue;
    const type = stringField(change, 'type');
    const update = type === 'update' ? change : ownField(change, 'update');
    if (type === 'delete' || isRecord(ownField(change, 'delete'))) deletes.add(path);
    if (isRecord(update)) {
      const to = stringField(update, 'move_path');
      if (to !== undefined && to !== '' && to !== path) moves.set(to, path);
    }
  }
  return { moves, deletes };
}

export function movePair(rawInput: unknown): { source: string; destination: string } | null {
  if (!isRecord(rawInput)) return null;
  for (const [from, to] of MOVE_KEYS) {
    const source = stringField(rawInput, from);
    const destination = stringField(rawInput, to);
    if (source && destination) return { source, destination };
  }
  return null;
}

function deletePaths(call: JsonRecord, rawInput: unknown): string[] {
  const paths: string[] = [];
  const locations = ownField(call, 'locations');
  if (Array.isArray(locations)) {
    for (const l of locations) {
      const p = isRecord(l) ? stringField(l, 'path') : undefined;
      if (p) paths.push(p);
    }
  }
  if (paths.length === 0 && isRecord(rawInput)) {
    for (const key of DELETE_PATH_KEYS) {
      const p = stringField(rawInput, key);
      if (p) paths.push(p);
    }
    for (const key of DELETE_LIST_KEYS) {
      const list = ownField(rawInput, key);
      if (isStringArray(list)) paths.push(...list.filter((p) => p !== ''));
    }
  }
  return [...new Set(paths)];
}
