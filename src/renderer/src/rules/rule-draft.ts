// A rule as the editor holds it (every field a string), and the ways a draft starts: empty, from a
// saved rule, from a history entry, from a suggestion.
import type { HistoryDetail } from '../../../shared/history';
import type { Rule, RuleAction, RuleSource, ToolKind } from '../../../shared/rules';

export type RuleTarget = 'any' | 'command' | 'path';

export interface RuleDraft {
  id: string;
  action: RuleAction;
  /** '' = any kind; a list is kept as it was (the editor shows it, the schema allows it). */
  toolKind: ToolKind | '' | ToolKind[];
  /** '' = not chosen yet: a new rule matches nothing until the person says what. */
  target: RuleTarget | '';
  command: string;
  commandMatch: 'prefix' | 'exact';
  path: string;
  agent: string;
  project: string;
  reason: string;
  /** An allow that holds only when the command's preview changes nothing outside `previewFolders`. */
  previewOnly: boolean;
  /** Folders relative to the session folder, one per line; none: the preview changes nothing. */
  previewFolders: string;
  createdAt?: number;
  source?: RuleSource;
  /** The simple commands of the shell line the draft was made from, when it had several. */
  commandParts?: string[];
}

/** A new rule: it asks, and matches nothing until the person picks what (never "allow anything"). */
export const EMPTY_DRAFT: RuleDraft = {
  id: '',
  action: 'ask',
  toolKind: '',
  target: '',
  command: '',
  commandMatch: 'prefix',
  path: '',
  agent: '',
  project: '',
  reason: '',
  previewOnly: false,
  previewFolders: '',
};

/** A path as a picomatch glob that matches only itself (as the core's suggestions escape it). */
export function escapeGlob(literal: string): string {
  return [...literal]
    .map((c) => (c === '\\' ? '[\\\\]' : '*?[]{}()!+@|'.includes(c) ? `\\${c}` : c))
    .join('');
}

export function draftOfRule(rule: Rule): RuleDraft {
  return {
    id: rule.id,
    action: rule.action,
    toolKind: rule.toolKind ?? '',
    target: rule.command !== undefined ? 'command' : rule.path !== undefined ? 'path' : 'any',
    command: rule.command ?? '',
    commandMatch: rule.commandMatch ?? 'prefix',
    path: rule.path ?? '',
    agent: rule.agent ?? '',
    project: rule.project ?? '',
    reason: rule.reason ?? '',
    previewOnly: rule.whenPreviewChangesOnly !== undefined,
    previewFolders: (rule.whenPreviewChangesOnly ?? []).join('\n'),
    ...(rule.createdAt !== undefined ? { createdAt: rule.createdAt } : {}),
    ...(rule.source !== undefined ? { source: rule.source } : {}),
  };
}

/** The rule a draft stands for; blank optional fields are left out. */
export function ruleOfDraft(draft: RuleDraft): Rule {
  const rule: Rule = { id: draft.id.trim(), action: draft.action };
  if (draft.agent) rule.agent = draft.agent;
  if (draft.project.trim()) rule.project = draft.project.trim();
  if (Array.isArray(draft.toolKind) ? draft.toolKind.length > 0 : draft.toolKind)
    rule.toolKind = draft.toolKind as ToolKind;
  if (draft.target === 'command') {
    rule.command = draft.command;
    rule.commandMatch = draft.commandMatch;
  }
  if (draft.target === 'path') rule.path = draft.path;
  if (draft.reason.trim()) rule.reason = draft.reason.trim();
  // Only an allow waits for a preview; on an ask or a deny the condition would change nothing.
  if (draft.action === 'allow' && draft.previewOnly)
    rule.whenPreviewChangesOnly = draft.previewFolders
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  if (draft.createdAt !== undefined) rule.createdAt = draft.createdAt;
  if (draft.source !== undefined) rule.source = draft.source;
  return rule;
}

/**
 * The simple commands of a shell line, split at unquoted `|`, `||`, `&&`, `;`, `&` and line breaks.
 * Only to offer a choice in the editor: the core's own parser decides what a rule matches.
 */
export function splitShellLine(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote === '"' && i + 1 < line.length) current += c + line[++i];
      else {
        if (c === quote) quote = null;
        current += c;
      }
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      current += c + line[++i];
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    // `2>&1`, `&>file`: a redirection, not a separator.
    const redirect =
      c === '&' && (line[i - 1] === '>' || line[i - 1] === '<' || line[i + 1] === '>');
    if (!redirect && (c === '|' || c === ';' || c === '&' || c === '\n')) {
      if (line[i + 1] === c && c !== ';' && c !== '\n') i++;
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/**
 * "Make this a rule": the same decision for the same thing — the exact command (or the first path,
 * escaped so it matches only itself), this agent, this project folder.
 */
export function draftOfHistory(detail: HistoryDetail, now: number): RuleDraft {
  const allowed =
    detail.reply.outcome === 'selected' && detail.reply.optionKind.startsWith('allow');
  const command = detail.command?.command ?? detail.commandText;
  const base: RuleDraft = {
    ...EMPTY_DRAFT,
    action: allowed ? 'allow' : 'deny',
    target: 'any',
    toolKind: detail.toolKind,
    agent: detail.agentId,
    project: detail.cwd,
    reason: `Made from a ${allowed ? 'approved' : 'refused'} request: ${detail.title}`.slice(
      0,
      300,
    ),
    createdAt: now,
    source: 'history',
  };
  if (detail.toolKind === 'execute' && command) {
    // A rule matches one simple command; a line of several starts from its first one.
    const parts = splitShellLine(command);
    if (parts.length > 1)
      return {
        ...base,
        target: 'command',
        command: parts[0]!,
        commandMatch: 'exact',
        commandParts: parts,
      };
    return { ...base, target: 'command', command, commandMatch: 'exact' };
  }
  if (detail.paths[0]) return { ...base, target: 'path', path: escapeGlob(detail.paths[0]) };
  return base;
}

/** A readable id that is not taken: "allow-npm-test", "deny-rm-rf-2". */
export function suggestId(draft: RuleDraft, taken: ReadonlySet<string>): string {
  const subject =
    draft.target === 'command'
      ? draft.command
      : draft.target === 'path'
        ? (draft.path.split(/[\\/]/).filter(Boolean).pop() ?? '')
        : Array.isArray(draft.toolKind)
          ? draft.toolKind.join('-')
          : draft.toolKind || 'any';
  const slug =
    `${draft.action}-${subject}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48)
      .replace(/-+$/, '') || draft.action;
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
}
