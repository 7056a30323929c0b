// A terminal CLI's tool call (its tool name and input, as its hook received them) as the tool call
// of an ACP permission request: the kind comes from the tool's name (never from anything the model
// wrote), the command and paths from its input, and an edit's diff from the file on disk with the
// edit applied — so the rules, the warnings and the dialog see what an ACP agent would have shown.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ToolKind } from '../../../shared/domain';
import type { HookAgent } from '../../../shared/control-hook';

export interface TerminalToolCall {
  kind: ToolKind;
  title: string;
  rawInput: Record<string, unknown>;
  locations: { path: string }[];
  content: { type: 'diff'; path: string; oldText: string | null; newText: string }[];
}

/** A file larger than this is not read for its diff: the request shows the path without one. */
const MAX_DISK_READ_BYTES = 4 * 1024 * 1024;

type Input = Record<string, unknown>;
type Edit = { old: string; new: string; all: boolean };

interface ToolShape {
  kind: ToolKind;
  /** Input fields naming a path, first present wins. */
  path?: string[];
  /** The whole new content (a write), or the edits to apply to the file on disk. */
  write?: (input: Input) => string | null;
  edits?: (input: Input) => Edit[] | null;
  label: string;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const content = (input: Input) => str(input['content']);
const oneEdit =
  (all: (input: Input) => boolean) =>
  (input: Input): Edit[] | null => {
    const old = str(input['old_string']);
    const next = str(input['new_string']);
    return old === null || next === null ? null : [{ old, new: next, all: all(input) }];
  };
const multiEdit = (input: Input): Edit[] | null => {
  const list = input['edits'];
  if (!Array.isArray(list)) return null;
  const edits = list.map((e: unknown) =>
    e && typeof e === 'object' ? oneEdit((i) => i['replace_all'] === true)(e as Input) : null,
  );
  return edits.every((e) => e !== null) ? edits.flat() : null;
};

const FILE = ['file_path', 'absolute_path', 'path', 'notebook_path'];
const DIR = ['dir_path', 'path', 'directory'];

// The shapes both CLIs' tools share; each CLI's table below names its tools with them.
const RUN: ToolShape = { kind: 'execute', label: 'Run' };
const WRITE: ToolShape = { kind: 'edit', path: FILE, write: content, label: 'Write' };
const edit = (edits: ToolShape['edits']): ToolShape => ({
  kind: 'edit',
  path: FILE,
  edits,
  label: 'Edit',
});
const READ: ToolShape = { kind: 'read', path: FILE, label: 'Read' };
const search = (label: string): ToolShape => ({ kind: 'search', path: DIR, label });
const web = (label: string): ToolShape => ({ kind: 'fetch', label });

/** The tools of each CLI by name; any other tool is `other`, and a person is asked. */
const TOOLS: Record<HookAgent, Record<string, ToolShape>> = {
  'claude-code': {
    Bash: RUN,
    Write: WRITE,
    Edit: edit(oneEdit((i) => i['replace_all'] === true)),
    MultiEdit: edit(multiEdit),
    NotebookEdit: { kind: 'edit', path: FILE, label: 'Edit notebook' },
    Read: READ,
    Glob: search('Find files'),
    Grep: search('Search'),
    LS: search('List'),
    WebFetch: web('Fetch'),
    WebSearch: web('Search the web'),
  },
  'gemini-cli': {
    run_shell_command: RUN,
    write_file: WRITE,
    replace: edit(
      oneEdit((i) => i['allow_multiple'] === true || Number(i['expected_replacements']) > 1),
    ),
    read_file: READ,
    read_many_files: { kind: 'read', label: 'Read files' },
    list_directory: search('List'),
    glob: search('Find files'),
    search_file_content: search('Search'),
    grep_search: search('Search'),
    web_fetch: web('Fetch'),
    google_web_search: web('Search the web'),
  },
};

/** What the file holds now: null when it does not exist (or is not a readable regular file). */
async function onDisk(path: string): Promise<{ text: string | null; tooLarge: boolean }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { text: null, tooLarge: false };
    if (info.size > MAX_DISK_READ_BYTES) return { text: null, tooLarge: true };
    return { text: await readFile(path, 'utf8'), tooLarge: false };
  } catch {
    return { text: null, tooLarge: false };
  }
}

/** The text once every edit applied, or null when one does not apply (the CLI will fail it too). */
export function applyEdits(text: string, edits: Edit[]): string | null {
  let out = text;
  for (const edit of edits) {
    if (edit.old === '') return null;
    const at = out.indexOf(edit.old);
    if (at < 0) return null;
    out = edit.all
      ? out.split(edit.old).join(edit.new)
      : out.slice(0, at) + edit.new + out.slice(at + edit.old.length);
  }
  return out;
}

async function diffOf(
  shape: ToolShape,
  input: Input,
  path: string,
): Promise<TerminalToolCall['content'][number] | null> {
  const written = shape.write?.(input) ?? null;
  const edits = shape.edits?.(input) ?? null;
  if (written === null && edits === null) return null;
  const disk = await onDisk(path);
  if (disk.tooLarge) return null;
  if (written !== null) return { type: 'diff', path, oldText: disk.text, newText: written };
  // An edit whose old text is empty creates the file (Claude Code's Edit).
  if (disk.text === null)
    return edits!.length === 1 && edits![0]!.old === ''
      ? { type: 'diff', path, oldText: null, newText: edits![0]!.new }
      : null;
  const after = applyEdits(disk.text, edits!);
  if (after !== null) return { type: 'diff', path, oldText: disk.text, newText: after };
  // Not applicable to the file as it is: the fragments themselves are what was asked.
  return {
    type: 'diff',
    path,
    oldText: edits!.map((e) => e.old).join('\n…\n'),
    newText: edits!.map((e) => e.new).join('\n…\n'),
  };
}

function pathOf(shape: ToolShape, input: Input, cwd: string): string | null {
  for (const key of shape.path ?? []) {
    const value = str(input[key]);
    if (value) return isAbsolute(value) ? resolve(value) : resolve(cwd, value);
  }
  return null;
}

function titleOf(shape: ToolShape, toolName: string, input: Input, path: string | null): string {
  if (shape.kind === 'execute') return str(input['command']) ?? toolName;
  const what = path ?? str(input['url']) ?? str(input['query']) ?? str(input['pattern']);
  return what ? `${shape.label} ${what}` : `${shape.label} (${toolName})`;
}

/** `cwd`: where the CLI runs now; relative paths in the input are taken from there. */
export async function terminalToolCall(
  agent: HookAgent,
  toolName: string,
  input: Input,
  cwd: string,
): Promise<TerminalToolCall> {
  const shape: ToolShape = Object.hasOwn(TOOLS[agent], toolName)
    ? TOOLS[agent][toolName]!
    : { kind: 'other', label: toolName };
  const path = pathOf(shape, input, cwd);
  const diff = path === null ? null : await diffOf(shape, input, path);
  return {
    kind: shape.kind,
    title: titleOf(shape, toolName, input, path),
    rawInput: input,
    locations: path === null ? [] : [{ path }],
    content: diff ? [diff] : [],
  };
}
