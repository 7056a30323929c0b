// The approval clients see and the store keeps, within the budget of limits.ts. The rules judge the
// whole request; this copy is what is queued, sent and shown. A part over its bound is cut (strings
// keep a prefix) or replaced by a marker, and listed in `cuts` with the original's size and sha-256;
// the originals are handed back to be stored as blobs, up to STORED_ORIGINALS_MAX_BYTES per request.
import type {
  CommandView,
  Cut,
  PendingApproval,
  Truncated,
  TruncatedValue,
  Warning,
} from '../../../shared/domain';
import {
  COMMAND_MAX_BYTES,
  COMMAND_MAX_CHARS,
  CONTENT_ITEM_MAX_BYTES,
  CONTENT_MAX_BYTES,
  DIFFS_MAX_BYTES,
  LOCATIONS_MAX_BYTES,
  MAX_CONTENT_ITEMS,
  MAX_DIFFS,
  PATH_MAX_CHARS,
  RAW_INPUT_MAX_BYTES,
  RAW_INPUT_PREVIEW_MAX_CHARS,
  STORED_ORIGINALS_MAX_BYTES,
  TITLE_MAX_CHARS,
  WARNING_MESSAGE_MAX_CHARS,
  WARNING_WHERE_MAX_CHARS,
} from './limits';
import { jsonPieces, measurePieces, piecesBytes } from './json-pieces';
import { previewRawInput } from './preview';
import { truncateWithMarker } from './text';

export interface BoundedApproval {
  approval: PendingApproval;
  /**
   * The originals of cut parts the store should keep, keyed by `blob` in their markers: a text, or
   * the pieces it is made of (joined on the store's thread, not here).
   */
  originals: (string | readonly string[])[];
}

/** UTF-8 size of a value's JSON (what it costs on the wire). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

class Cutter {
  readonly cuts: Cut[] = [];
  readonly originals: (string | readonly string[])[] = [];
  private stored = 0;

  /**
   * Describes `original` (a string, or a value's JSON, whole or in pieces) by the size and sha-256
   * of its UTF-8 bytes, the key the store gives the same text as a blob, and keeps it while the
   * budget lasts. `size`, when the caller has counted it, is the original's UTF-8 size.
   */
  mark(part: string, original: string | readonly string[], size?: number): Truncated {
    const { bytes, sha256: hash } = measurePieces(
      typeof original === 'string' ? [original] : original,
      size,
    );
    const marker: Truncated = { truncated: true, bytes, sha256: hash };
    if (this.stored + bytes <= STORED_ORIGINALS_MAX_BYTES) {
      this.stored += bytes;
      this.originals.push(original);
      marker.blob = hash;
    }
    this.cuts.push({ part, ...marker });
    return marker;
  }
}

/**
 * Bounds every part of `full` that came from the agent: title, rawInput, content items, locations,
 * the command view, prepared diffs (their texts are bounded by prepareDiffs), warning texts. Option
 * names and ids are bounded by the contract. Pure apart from hashing; never throws.
 */
export function boundApproval(full: PendingApproval): BoundedApproval {
  const cutter = new Cutter();
  const { toolCall } = full;

  let title = toolCall.title;
  if (title.length > TITLE_MAX_CHARS) {
    cutter.mark('title', title);
    title = truncateWithMarker(title, TITLE_MAX_CHARS);
  }
  const rawInput = boundRawInput(toolCall.rawInput, cutter);
  const content = boundContent(toolCall.content, cutter);
  const locations = boundList(
    'locations',
    toolCall.locations,
    LOCATIONS_MAX_BYTES,
    Infinity,
    cutter,
  );
  const command = full.command && boundCommand(full.command, cutter);
  const diffs = boundList('diffs', full.diffs, DIFFS_MAX_BYTES, MAX_DIFFS, cutter);
  const diffsDropped = (full.diffsDropped ?? 0) + full.diffs.length - diffs.length;
  const warnings = full.warnings.map(boundWarning);

  const approval: PendingApproval = {
    ...full,
    toolCall: {
      ...toolCall,
      title,
      locations,
      content,
      ...(toolCall.rawInput === undefined ? {} : { rawInput }),
    },
    command,
    diffs,
    warnings,
  };
  if (diffsDropped > 0) approval.diffsDropped = diffsDropped;
  if (cutter.cuts.length > 0) approval.cuts = cutter.cuts;
  return { approval, originals: cutter.originals };
}

function boundRawInput(rawInput: unknown, cutter: Cutter): unknown {
  if (rawInput === undefined) return undefined;
  // It may hold a file of megabytes: a long string that needs no escaping is measured and hashed
  // where it lies (json-pieces.ts); one that does is escaped a stretch at a time.
  const json = jsonPieces(rawInput);
  const bytes = piecesBytes(json);
  if (bytes <= RAW_INPUT_MAX_BYTES) return rawInput;
  const marker: TruncatedValue = {
    ...cutter.mark('rawInput', json, bytes),
    preview: previewRawInput(rawInput, RAW_INPUT_PREVIEW_MAX_CHARS),
  };
  return marker;
}

/** Items kept in order while each fits CONTENT_ITEM_MAX_BYTES and all fit CONTENT_MAX_BYTES. */
function boundContent(content: unknown[], cutter: Cutter): unknown[] {
  const out: unknown[] = [];
  let used = 0;
  const shown = content.slice(0, MAX_CONTENT_ITEMS);
  shown.forEach((item, i) => {
    // A diff item carries a whole file: measured as the raw input is.
    const json = jsonPieces(item);
    const bytes = piecesBytes(json);
    if (bytes <= CONTENT_ITEM_MAX_BYTES && used + bytes <= CONTENT_MAX_BYTES) {
      used += bytes;
      out.push(item);
    } else {
      out.push(cutter.mark(`content[${i}]`, json, bytes));
    }
  });
  if (content.length > MAX_CONTENT_ITEMS) {
    const rest = content.slice(MAX_CONTENT_ITEMS);
    out.push(cutter.mark(`content[${MAX_CONTENT_ITEMS}…]`, jsonPieces(rest)));
  }
  return out;
}

/** The leading entries that fit `maxBytes` of JSON and `maxCount`; the whole list when cut is kept. */
function boundList<T>(
  part: string,
  list: T[],
  maxBytes: number,
  maxCount: number,
  cutter: Cutter,
): T[] {
  let used = 2;
  let keep = 0;
  for (const entry of list) {
    if (keep >= maxCount) break;
    const bytes = jsonBytes(entry) + 1;
    if (used + bytes > maxBytes) break;
    used += bytes;
    keep++;
  }
  if (keep === list.length) return list;
  cutter.mark(part, jsonPieces(list));
  return list.slice(0, keep);
}

function boundCommand(command: CommandView, cutter: Cutter): CommandView {
  const json = JSON.stringify(command);
  if (Buffer.byteLength(json, 'utf8') <= COMMAND_MAX_BYTES) return command;
  cutter.mark('command', json);
  // A command shown cut is never remembered: nothing of it is offered as a prefix either.
  const { prefix: _offer, ...whole } = command;
  return {
    ...whole,
    command: truncateWithMarker(command.command, COMMAND_MAX_CHARS),
    args: command.args && boundArgs(command.args),
    cwd: command.cwd === null ? null : truncateWithMarker(command.cwd, PATH_MAX_CHARS),
  };
}

/** Leading args within COMMAND_MAX_CHARS together, then one word saying how many were left out. */
function boundArgs(args: string[]): string[] {
  const out: string[] = [];
  let left = COMMAND_MAX_CHARS;
  for (const arg of args) {
    if (left <= 0) break;
    const kept = truncateWithMarker(arg, left);
    out.push(kept);
    left -= kept.length;
  }
  const dropped = args.length - out.length;
  if (dropped > 0) out.push(`…[truncated: ${dropped} more args]`);
  return out;
}

/** A warning's texts within their bounds (a preview's warnings quote paths the command chose). */
export function boundWarning(warning: Warning): Warning {
  return {
    ...warning,
    message: truncateWithMarker(warning.message, WARNING_MESSAGE_MAX_CHARS),
    where: truncateWithMarker(warning.where, WARNING_WHERE_MAX_CHARS),
  };
}
