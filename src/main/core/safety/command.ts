// The raw command of a request, as the agent will run it, shown apart from the agent's title.
//
// What real agents send (checked against their sources):
// - claude-agent-acp (Bash): rawInput { command: string, description?, timeout?, run_in_background? };
//   the title is the command itself.
// - Gemini CLI 0.6x (run_shell_command): NO rawInput in session/request_permission. The title is
//   `params.command` verbatim (ShellToolInvocation.getDisplayTitle) and the only content is a text
//   item "[in <dir_path>] (<description>)" or "[current working directory <cwd>] (…)". Older
//   Gemini and Qwen Code send rawInput { command, description?, directory? | dir_path?, is_background? }.
// - Codex: zed-industries/codex-acp sends rawInput = ExecApprovalRequestEvent
//   { command: string[] (argv, often ["bash","-lc","…"]), cwd, reason, parsed_cmd, … } with a kind
//   that may be read/search for commands it parsed as reads; agentclientprotocol/codex-acp sends
//   rawInput { command: string, cwd } and no title.
// - opencode: rawInput is the permission's metadata ({ command?, workdir?, description? } in some
//   versions, {} in others: then the command only exists in the earlier tool_call, see
//   mergeToolCallUpdate).
// - Anything else: the first of command / cmd / script / argv (string or argv array), top level or
//   under input / params / arguments / parameters.
import { isAbsolute, resolve } from 'node:path';
import type { CommandView, ToolCallSnapshot, ToolKind } from '../../../shared/domain';
import { isRecord, isStringArray, ownField, stringField, type JsonRecord } from './text';

export interface RawCommand {
  command: string;
  args: string[] | null;
  cwd: string | null;
}

const CWD_KEYS = [
  'cwd',
  'workdir',
  'working_directory',
  'workingDirectory',
  'dir_path',
  'directory',
];
// Only `command` is trusted for every kind (Codex puts real commands under read/search kinds);
// the looser names are read only for execute requests, where they cannot mean anything else.
const EXECUTE_ONLY_KEYS = ['cmd', 'script', 'argv'];
const NESTED_KEYS = ['input', 'params', 'arguments', 'parameters'];

/** The command in rawInput, verbatim (cwd unresolved), or null. Never throws. */
export function commandFromRawInput(rawInput: unknown, kind: ToolKind): RawCommand | null {
  // A bare string rawInput on an execute request is the command line itself.
  if (typeof rawInput === 'string')
    return kind === 'execute' ? { command: rawInput, args: null, cwd: null } : null;
  if (!isRecord(rawInput)) return null;
  const top = fromRecord(rawInput, kind);
  if (top) return top;
  if (kind !== 'execute') return null;
  for (const key of NESTED_KEYS) {
    const nested = ownField(rawInput, key);
    if (isRecord(nested)) {
      const found = fromRecord(nested, kind);
      if (found) return found;
    }
  }
  return null;
}

function fromRecord(record: JsonRecord, kind: ToolKind): RawCommand | null {
  const keys = kind === 'execute' ? ['command', ...EXECUTE_ONLY_KEYS] : ['command'];
  for (const key of keys) {
    const value = ownField(record, key);
    let argv: string[] | null = null;
    let line: string | null = null;
    if (typeof value === 'string') {
      const extra = ownField(record, 'args');
      // { command: "git", args: ["push"] } is an exec-style call: the argv is command + args.
      if (key === 'command' && isStringArray(extra) && extra.length > 0) argv = [value, ...extra];
      else line = value;
    } else if (isStringArray(value) && value.length > 0) {
      argv = value;
    } else {
      continue;
    }
    const cwd = firstString(record, CWD_KEYS);
    if (argv) return { command: quoteArgv(argv), args: argv, cwd };
    return { command: line ?? '', args: null, cwd };
  }
  return null;
}

function firstString(record: JsonRecord, keys: string[]): string | null {
  for (const key of keys) {
    const value = stringField(record, key);
    if (value !== undefined && value !== '') return value;
  }
  return null;
}

/**
 * The request's command, or null if it has none.
 *
 * `command` is what a shell would receive. When the agent sent an argv array, `args` is that argv
 * exactly (program first) and `command` is a copy-pasteable, shell-quoted rendering of it; when it
 * sent a command line, `args` is null. Nothing is ever cut: the dialog wraps or scrolls.
 *
 * `cwd` is the directory the agent stated, resolved against the session folder when relative
 * (`~` is left as written). Null when the agent did not state one: agents such as Claude Code
 * keep a persistent shell whose directory may have moved, so assuming the session folder would
 * be a guess presented as fact.
 */
export function extractCommand(toolCall: ToolCallSnapshot, sessionCwd: string): CommandView | null {
  const raw = commandFromRawInput(toolCall.rawInput, toolCall.kind);
  const found = raw ?? geminiShellCommand(toolCall);
  if (!found) return null;
  return {
    command: found.command,
    args: found.args,
    cwd: resolveCwd(found.cwd, sessionCwd),
    source: raw ? 'rawInput' : 'title',
  };
}

function resolveCwd(cwd: string | null, sessionCwd: string): string | null {
  if (cwd === null) return null;
  if (cwd.startsWith('~')) return cwd;
  if (isAbsolute(cwd)) return resolve(cwd);
  return isAbsolute(sessionCwd) ? resolve(sessionCwd, cwd) : cwd;
}

const GEMINI_IN = '[in ';
const GEMINI_CWD = '[current working directory ';
const BACKGROUND = ' [background]';

/**
 * Gemini CLI's shell request carries the command only as its title. It is recognised by its exact
 * shape (execute, no rawInput, a content text starting "[in " / "[current working directory "),
 * so another agent's descriptive title ("Running tests") is never mistaken for a command.
 */
function geminiShellCommand(toolCall: ToolCallSnapshot): RawCommand | null {
  if (
    toolCall.kind !== 'execute' ||
    (toolCall.rawInput !== undefined && toolCall.rawInput !== null)
  ) {
    return null;
  }
  for (const item of toolCall.content) {
    if (!isRecord(item) || item['type'] !== 'content') continue;
    const inner = item['content'];
    if (!isRecord(inner) || inner['type'] !== 'text') continue;
    const text = inner['text'];
    if (typeof text !== 'string') continue;
    if (text.startsWith(GEMINI_IN))
      return { command: toolCall.title, args: null, cwd: bracketed(text, GEMINI_IN.length) };
    if (text.startsWith(GEMINI_CWD)) {
      return { command: toolCall.title, args: null, cwd: bracketed(text, GEMINI_CWD.length) };
    }
  }
  return null;
}

/**
 * The directory inside Gemini's "[in DIR] (description) [background]". The description is free
 * text, so a `]` that could end DIR in more than one place makes the directory unknown (null)
 * rather than possibly wrong.
 */
function bracketed(text: string, from: number): string | null {
  const ends: number[] = [];
  for (let at = text.indexOf(']', from); at !== -1; at = text.indexOf(']', at + 1)) {
    const next = at + 1;
    if (
      next === text.length ||
      text.startsWith(' (', next) ||
      (text.length - next === BACKGROUND.length && text.startsWith(BACKGROUND, next))
    ) {
      ends.push(at);
      if (ends.length > 1) return null;
    }
  }
  if (ends.length !== 1) return null;
  const dir = text.slice(from, ends[0]);
  return dir === '' ? null : dir;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** POSIX shell quoting of an argv, for display and copy-paste only. */
export function quoteArgv(argv: string[]): string {
  return argv
    .map((a) => (a === '' ? "''" : SAFE_WORD.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
