// Runs a raw ACP tool call through the whole safety pipeline, the way the approval pipeline does.
import { PreparedDiff, type Warning } from '../../../shared/domain';
import { computeWarnings, extractCommand, normalizeToolCall, prepareDiffs } from '.';
import { initShellParser } from '../rules';

// The warnings read the shell analysis of the rules, whose parser loads once, asynchronously (the
// core awaits it before the first request).
await initShellParser();

export const HOME = '/home/dev';
export const SESSION = '/home/dev/project';

export function analyse(raw: unknown, sessionCwd = SESSION, homeDir = HOME) {
  const toolCall = normalizeToolCall(raw);
  const command = extractCommand(toolCall, sessionCwd);
  const diffs = prepareDiffs(toolCall);
  const warnings = computeWarnings({ toolCall, command, diffs, sessionCwd, homeDir });
  return { toolCall, command, diffs, warnings };
}

export function warningsOf(raw: unknown, sessionCwd = SESSION, homeDir = HOME): Warning[] {
  return analyse(raw, sessionCwd, homeDir).warnings;
}

export function codes(warnings: Warning[]): string[] {
  return warnings.map((w) => w.code);
}

export function only(warnings: Warning[], code: Warning['code']): Warning[] {
  return warnings.filter((w) => w.code === code);
}

/** A Claude Code (claude-agent-acp) Bash permission request: the title is the command. */
export function claudeBash(command: string, description?: string) {
  return {
    toolCallId: 'toolu_01',
    kind: 'execute',
    title: command,
    rawInput: description === undefined ? { command } : { command, description },
    content: description ? [{ type: 'content', content: { type: 'text', text: description } }] : [],
  };
}

/** A request with an arbitrary title and a command in rawInput (how a lying agent would send it). */
export function titled(title: string, command: string, extra: Record<string, unknown> = {}) {
  return { toolCallId: 't1', kind: 'execute', title, rawInput: { command, ...extra } };
}

/** A Gemini CLI 0.6x shell permission request: no rawInput, the title is the command. */
export function geminiShell(command: string, dir?: string, description?: string) {
  const details = `${dir ? `[in ${dir}]` : '[current working directory /home/dev/project]'}${description ? ` (${description})` : ''}`;
  return {
    toolCallId: 'run_shell_command-1768220366439',
    status: 'pending',
    title: command,
    content: [{ type: 'content', content: { type: 'text', text: details } }],
    locations: [],
    kind: 'execute',
  };
}

/** prepareDiffs on a raw tool call, each diff checked against the shape the UI receives. */
export function diffs(raw: unknown, options?: Parameters<typeof prepareDiffs>[1]) {
  const out = prepareDiffs(normalizeToolCall(raw), options);
  for (const d of out) PreparedDiff.parse(d);
  return out;
}

export const diffEdit = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  toolCallId: 'e',
  kind: 'edit',
  title: 'Edit',
  content: items,
  ...extra,
});
