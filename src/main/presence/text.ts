// Text for surfaces that show a request in a few words (notifications, tray menu): what will run or
// be touched, never only the agent's own description of it, with every invisible or control
// character revealed, and bounded so a hostile request cannot flood a notification or a menu.
import { isAbsolute, relative, sep } from 'node:path';
import type { PendingApproval, ToolKind } from '../../shared/domain';
import { cutAt, isHighSurrogate } from '../../shared/utf16';
import { isInside, revealInvisibles } from '../core';

/** Upper bounds: what a notification bubble or a menu row can show in practice. */
export const LIMITS = {
  title: 80,
  line: 160,
  bodyLines: 4,
  menuLabel: 72,
} as const;

const ELLIPSIS = '…';

/** Cuts to `max` UTF-16 units (ellipsis included); never splits a surrogate pair or a ⟨U+…⟩ marker. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = cutAt(text, Math.max(0, max - ELLIPSIS.length));
  const open = text.lastIndexOf('⟨', keep);
  if (open >= 0 && text.indexOf('⟩', open) >= keep) keep = open;
  return text.slice(0, keep) + ELLIPSIS;
}

/** Cuts from the left, for paths: the file name is what a person needs to see. */
export function clipLeft(text: string, max: number): string {
  if (text.length <= max) return text;
  let start = text.length - Math.max(0, max - ELLIPSIS.length);
  if (start < text.length && isHighSurrogate(text.charCodeAt(start - 1))) start += 1;
  const close = text.indexOf('⟩', start);
  if (close >= 0 && text.lastIndexOf('⟨', close) < start) start = close + 1;
  return ELLIPSIS + text.slice(start);
}

/**
 * One line of untrusted text made safe to show: line breaks become ` ⏎ `, tabs a space, and every
 * bidi, zero-width or control character a visible ⟨U+XXXX⟩ marker (so text cannot reorder or hide
 * part of itself); then bounded.
 */
export function safeLine(
  text: string,
  max: number = LIMITS.line,
  from: 'start' | 'end' = 'start',
): string {
  // Only the shown part matters; the budget keeps a megabyte command from costing a megabyte regex.
  const budget = max * 4;
  const head =
    text.length > budget ? (from === 'start' ? text.slice(0, budget) : text.slice(-budget)) : text;
  const flat = head.replace(/\r\n|\n/g, ' ⏎ ').replace(/\t/g, ' ');
  const revealed = revealInvisibles(flat, { lineBreaks: 'reveal' });
  const shown =
    text.length > budget
      ? from === 'start'
        ? `${revealed}${ELLIPSIS}`
        : `${ELLIPSIS}${revealed}`
      : revealed;
  return from === 'start' ? clip(shown, max) : clipLeft(shown, max);
}

const KIND_VERB: Record<ToolKind, string> = {
  read: 'read a file',
  edit: 'edit a file',
  delete: 'delete a file',
  move: 'move a file',
  search: 'search',
  execute: 'run a command',
  think: 'think',
  fetch: 'fetch from the web',
  switch_mode: 'switch mode',
  other: 'use a tool',
};

/** "run a command", "create a file", …: what the agent asks, by kind (and diff, for new files). */
export function kindVerb(approval: PendingApproval): string {
  const kind = approval.toolCall.kind;
  if (
    kind === 'edit' &&
    approval.diffs.length > 0 &&
    approval.diffs.every((d) => d.change === 'create')
  ) {
    return approval.diffs.length === 1 ? 'create a file' : 'create files';
  }
  if ((kind === 'edit' || kind === 'read') && approval.diffs.length > 1) return `${kind} files`;
  return KIND_VERB[kind];
}

/**
 * A path relative to the session folder when inside it (./x), as given otherwise: a path that leaves
 * the folder through `..` is shown whole, not as a ./ path that looks contained.
 */
function shownPath(path: string, cwd: string): string {
  if (!isAbsolute(path) || !isAbsolute(cwd) || !isInside(path, cwd)) return path;
  const inner = relative(cwd, path);
  return inner === '' ? path : `.${sep}${inner}`;
}

function pathsOf(approval: PendingApproval): string[] {
  const fromDiffs = approval.diffs.flatMap((d) =>
    d.oldPath && d.oldPath !== d.path ? [d.oldPath, d.path] : [d.path],
  );
  const all = fromDiffs.length > 0 ? fromDiffs : approval.toolCall.locations.map((l) => l.path);
  return [...new Set(all)];
}

function urlOf(approval: PendingApproval): string | null {
  const raw = approval.toolCall.rawInput;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const url = Object.hasOwn(raw, 'url') ? (raw as Record<string, unknown>).url : undefined;
  return typeof url === 'string' ? url : null;
}

/**
 * The raw subject of a request: `$ <command>`, the path(s), or the URL — what will actually run or
 * be touched. Null when the request carries none of them (then only the agent's title is left).
 */
export function rawSubject(approval: PendingApproval, max: number = LIMITS.line): string | null {
  if (approval.command) return `$ ${safeLine(approval.command.command, max - 2)}`;
  const paths = pathsOf(approval);
  if (paths.length > 0) {
    const more = paths.length > 1 ? ` (+${paths.length - 1} more)` : '';
    const arrow = approval.toolCall.kind === 'move' && paths.length === 2;
    if (arrow) {
      const half = Math.floor((max - 3) / 2);
      return `${safeLine(shownPath(paths[0]!, approval.cwd), half, 'end')} → ${safeLine(shownPath(paths[1]!, approval.cwd), half, 'end')}`;
    }
    return safeLine(shownPath(paths[0]!, approval.cwd), max - more.length, 'end') + more;
  }
  const url = urlOf(approval);
  if (url) return safeLine(url, max);
  return null;
}

/** The agent's own title, quoted: a claim, shown apart from the raw subject. */
export function agentTitle(approval: PendingApproval, max: number = LIMITS.line): string {
  return `“${safeLine(approval.toolCall.title, max - 2)}”`;
}

/** One short line for a list row: the raw subject when there is one, else the agent's title. */
export function shortSubject(approval: PendingApproval, max: number): string {
  return rawSubject(approval, max) ?? agentTitle(approval, max);
}

export function agentName(approval: PendingApproval, max = 40): string {
  return safeLine(approval.agentName || approval.agentId, max);
}

export const hasDanger = (approval: PendingApproval) =>
  approval.warnings.some((w) => w.severity === 'danger');
