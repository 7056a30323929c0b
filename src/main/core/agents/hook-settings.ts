// Where a terminal CLI keeps its hooks and how Gatehouse's own hook is written and recognised there:
// one model for `gatehouse hook install|uninstall`, which writes it, and the settings view, which
// reads it.
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { HookCli } from '../../../shared/hooked-clis';

export const HOOK_EVENT: Record<HookCli, string> = {
  'claude-code': 'PreToolUse',
  gemini: 'BeforeTool',
};
const FOLDER: Record<HookCli, string> = { 'claude-code': '.claude', gemini: '.gemini' };
/** The matcher install writes: every tool (Claude Code matches names, Gemini CLI a regex). */
export const ALL_TOOLS: Record<HookCli, string> = { 'claude-code': '*', gemini: '.*' };

/** Where the hook goes: the user's settings, or a project's. */
export function settingsFileFor(
  cli: HookCli,
  project: string | undefined,
  home: string = homedir(),
): string {
  return join(project === undefined ? home : resolve(project), FOLDER[cli], 'settings.json');
}

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** A word for a POSIX shell (both CLIs run hook commands through one). */
export function quoteWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command both CLIs run: a Node and a gatehouse, by absolute path. */
export function hookCommand(cli: HookCli, entry: string, node: string = process.execPath): string {
  return [node, entry, 'hook', cli].map(quoteWord).join(' ');
}

/** Gatehouse's own hook, whichever installation wrote it. */
export function isGatehouseHook(cli: HookCli, hook: unknown): boolean {
  if (!hook || typeof hook !== 'object') return false;
  const command = (hook as Record<string, unknown>)['command'];
  return (
    typeof command === 'string' &&
    /gatehouse\.mjs'? hook /.test(command) &&
    command.endsWith(` hook ${cli}`)
  );
}

/**
 * The words of a command written as hookCommand writes them, or null for anything else (another
 * quoting, a `;`, a pipe, a variable): such a command may run more than Gatehouse.
 */
function wordsOf(command: string): string[] | null {
  const words: string[] = [];
  const word = /(?:'((?:[^']|'\\'')*)'|([\w@%+=:,./-]+))(?: |$)/y;
  while (word.lastIndex < command.length) {
    const at = word.lastIndex;
    const match = word.exec(command);
    if (!match || word.lastIndex === at) return null;
    words.push(match[1] !== undefined ? match[1].replaceAll(`'\\''`, "'") : match[2]!);
  }
  return words;
}

/** The command runs exactly `<node> <entry> hook <cli>`: this gatehouse and nothing else. */
export function runsEntry(cli: HookCli, command: string, entry: string): boolean {
  const words = wordsOf(command);
  if (!words || words.length !== 4) return false;
  const [node, script, hook, name] = words as [string, string, string, string];
  return (
    isAbsolute(node) &&
    /^node(\.exe)?$/.test(basename(node)) &&
    script === entry &&
    hook === 'hook' &&
    name === cli
  );
}
