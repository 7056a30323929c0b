// What the disk says about a request's paths, and what the dialog must show because of it: a
// diff's "before" is the file on disk, not the agent's word for it; a path through a link shows
// where it lands; a protected file says what runs it. Pure: the facts are gathered by the caller
// (approvals/disk-facts.ts), bounded, and passed in.
import type { ToolCallSnapshot } from '../../../shared/domain';
import { revealInvisibles } from '../../../shared/invisible';
import { isInside } from '../fs/containment';
import { countLines } from './diff';
import { protectedEntryForReal, writesFiles, type ProtectedEntry } from '../rules/protected-files';
import { isRecord, ownField, stringField } from './text';
import type { WarningSink } from './warnings/sink';

/** One path of the request as it resolves on disk. */
export interface DiskPath {
  /** As the request named it. */
  path: string;
  /** Absolute, `..` applied as written. */
  lexical: string;
  /** Links and `..` resolved as the kernel will; null when that could not be found out. */
  real: string | null;
  /** The path is, or passes through, a link: `real` is not where `lexical` seems to point. */
  linked: boolean;
}

/** The file a diff replaces, read from disk: absent, or its text (null when not read: too large, binary, outside). */
export interface DiskFile {
  path: string;
  exists: boolean;
  text: string | null;
}

export interface DiskView {
  /** The session folder as the session names it. */
  cwd: string;
  /** The session folder's real path (null when it could not be resolved). */
  root: string | null;
  /** Git dirs the session folder's `.git` leads to elsewhere (worktree, submodule, link). */
  gitDirs: string[];
  paths: DiskPath[];
  files: DiskFile[];
}

/**
 * The tool call with each diff's "before" replaced by the file on disk where the two differ: the
 * diff a person reads is then what the write changes. An edit that replaces passages of the file
 * (as Claude's Edit does) becomes the whole file before and after: a person approves the file the
 * write makes, and a write of the bare passage, which would cut the file to it, is not that file.
 */
export function withDiskBefore(toolCall: ToolCallSnapshot, disk: DiskView): ToolCallSnapshot {
  let changed = false;
  const content = toolCall.content.map((item) => {
    const passage = passageEdit(item, disk);
    if (passage) {
      changed = true;
      return {
        ...(item as Record<string, unknown>),
        oldText: passage.before,
        newText: passage.after,
      };
    }
    const found = differing(item, disk);
    if (!found) return item;
    changed = true;
    return { ...(item as Record<string, unknown>), oldText: found.file.text ?? null };
  });
  return changed ? { ...toolCall, content } : toolCall;
}

/** A diff whose "before" is a passage of the file on disk: the whole file, and the file with it replaced. */
function passageEdit(item: unknown, disk: DiskView): { before: string; after: string } | null {
  if (!isRecord(item) || item['type'] !== 'diff') return null;
  const path = stringField(item, 'path');
  const oldText = ownField(item, 'oldText');
  const newText = ownField(item, 'newText');
  if (path === undefined || typeof oldText !== 'string' || typeof newText !== 'string') return null;
  if (oldText === '') return null;
  const file = disk.files.find((f) => f.path === path);
  if (!file?.exists || file.text === null || file.text === oldText) return null;
  if (!file.text.includes(oldText)) return null;
  // Every occurrence, as an edit that names a passage found more than once replaces them all.
  return { before: file.text, after: file.text.split(oldText).join(newText) };
}

interface Differing {
  path: string;
  oldText: string | null;
  newText: string;
  file: DiskFile;
}

function differing(item: unknown, disk: DiskView): Differing | null {
  if (!isRecord(item) || item['type'] !== 'diff') return null;
  const path = stringField(item, 'path');
  const newRaw = ownField(item, 'newText');
  if (path === undefined || typeof newRaw !== 'string') return null;
  const file = disk.files.find((f) => f.path === path);
  if (!file) return null;
  const oldRaw = ownField(item, 'oldText');
  const oldText = typeof oldRaw === 'string' ? oldRaw : null;
  if (!file.exists) return oldText ? { path, oldText, newText: newRaw, file } : null;
  if (file.text === null || oldText === file.text) return null;
  if (oldText && file.text.includes(oldText)) return null;
  return { path, oldText, newText: newRaw, file };
}

/** disk_differs, link_target and protected_file: what the disk shows that the request did not. */
export function diskWarnings(sink: WarningSink, toolCall: ToolCallSnapshot, disk: DiskView): void {
  const writes = writesFiles(toolCall.kind);
  for (const item of toolCall.content) {
    const found = differing(item, disk);
    if (found) sink.add(differsWarning(found));
  }
  for (const p of disk.paths) {
    const entry = writes ? protectedOf(p, disk) : null;
    const shown = revealInvisibles(p.path);
    if (p.linked && p.real !== null) {
      const outside = disk.root !== null && !isInside(p.real, disk.root);
      const where = revealInvisibles(p.real);
      const why = entry
        ? `, a protected file: ${entry.runs}`
        : outside
          ? ', outside the session folder'
          : '';
      sink.add({
        code: 'link_target',
        severity: entry || outside ? 'danger' : 'caution',
        message: `${shown} passes through a link: it resolves to ${where}${why}.`,
        where: 'path',
      });
    }
    if (entry) {
      sink.add({
        code: 'protected_file',
        severity: 'danger',
        message: `${shown} is a protected file: ${entry.runs}. Gatehouse asks a person about every write to it.`,
        where: 'path',
      });
    }
  }
}

function differsWarning({ path, oldText, newText, file }: Differing) {
  const shown = revealInvisibles(path);
  const where = `diff:${shown}`;
  if (!file.exists) {
    return {
      code: 'disk_differs' as const,
      severity: 'caution' as const,
      message: `The agent's "before" of ${shown} has ${lines(countLines(oldText ?? ''))}, but there is no such file on disk: the write creates it.`,
      where,
    };
  }
  const onDisk = countLines(file.text ?? '');
  const lost = onDisk - countLines(newText);
  const said = oldText
    ? `The agent's "before" of ${shown} is not what is on disk`
    : `The agent showed ${shown} as a new file, but it is on disk`;
  const loss = lost > 0 ? `: ${lines(lost)} would be lost` : '';
  return {
    code: 'disk_differs' as const,
    severity: 'danger' as const,
    message: `${said} (${lines(onDisk)})${loss}. The diff shown is from the file on disk.`,
    where,
  };
}

function protectedOf(p: DiskPath, disk: DiskView): ProtectedEntry | null {
  const { gitDirs } = disk;
  const real = p.real === null ? null : protectedEntryForReal(p.real, { root: disk.root, gitDirs });
  // Where no link is in the way, the path as written is the same question asked again.
  if (real !== null || (p.real === p.lexical && disk.root === disk.cwd)) return real;
  return protectedEntryForReal(p.lexical, { root: disk.cwd, gitDirs });
}

function lines(n: number): string {
  return n === 1 ? '1 line' : `${n} lines`;
}
