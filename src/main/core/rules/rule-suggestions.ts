/**
 * Rules proposed from past decisions: the history window suggests a rule for what a person keeps
 * approving or denying. Read-only over the decisions it is given.
 */
import nodePath from 'node:path';
import { newId } from '../ids';
import { allowCovers, blockMatch, compileRule, matchCommand, ruleInScope } from './match';
import { escapeGlob, type PathResolver } from './paths';
import { formatCommandPattern } from './pattern';
import { hasFileWrites, normalizeRoot, prepareRequest } from './request';
import { analyzeCommand } from './shell/analyze';
import type { HistoryEntry, RequestFacts, Rule, SimpleCommand, ToolKind } from './types';

export interface SuggestOptions {
  /** How many person decisions before suggesting (default 5). */
  threshold?: number;
  /** Do not suggest what these rules already decide the same way. */
  existingRules?: readonly Rule[];
  newId?: () => string;
  now?: number;
  resolver?: PathResolver;
}

export interface RuleSuggestion {
  rule: Rule;
  count: number;
  message: string;
  agentId: string;
  projectRoot?: string;
}

interface Group {
  decision: 'allow' | 'deny';
  agentId: string;
  projectRoot: string | undefined;
  kind: ToolKind;
  target: { type: 'command'; argv: string[]; text: string } | { type: 'path'; path: string };
  entries: Set<number>;
  sample: HistoryEntry;
  cmd?: SimpleCommand;
}

/**
 * Suggest rules from person decisions. A suggestion is never wider than what was seen:
 * - commands: an EXACT-match rule per simple command (each part of `a && b` counts separately;
 *   the person approved each part as shown); never for opaque lines, never for commands with
 *   run-time tokens, env assignments, unwrapped wrappers or file writes (a rule could not express
 *   them exactly);
 * - paths: a rule for that one absolute path (glob characters escaped);
 * - scoped to the agent and (when known) the project the decisions came from;
 * - not when the person decided the same thing the other way at least once.
 */
export function suggestRules(
  history: readonly HistoryEntry[],
  options: SuggestOptions = {},
): RuleSuggestion[] {
  const threshold = options.threshold ?? 5;
  const groups = new Map<string, Group>();
  const add = (
    entryIndex: number,
    entry: HistoryEntry,
    kind: ToolKind,
    target: Group['target'],
    cmd?: SimpleCommand,
  ): void => {
    const projectRoot =
      entry.projectRoot === undefined ? undefined : normalizeRoot(entry.projectRoot);
    const targetKey = target.type === 'command' ? JSON.stringify(target.argv) : target.path;
    const key = JSON.stringify([
      entry.decision,
      entry.agentId,
      projectRoot ?? null,
      kind,
      target.type,
      targetKey,
    ]);
    let g = groups.get(key);
    if (!g) {
      g = {
        decision: entry.decision,
        agentId: entry.agentId,
        projectRoot,
        kind,
        target,
        entries: new Set(),
        sample: entry,
        ...(cmd ? { cmd } : {}),
      };
      groups.set(key, g);
    }
    g.entries.add(entryIndex);
  };

  history.forEach((entry, i) => {
    if (entry.decidedBy !== 'person' || entry.toolKind === undefined) return;
    const kind = entry.toolKind;
    if (kind === 'execute') {
      if (entry.command === undefined || entry.command.trim() === '') return;
      const analysis = analyzeCommand(entry.command);
      if (analysis.kind !== 'simple') return;
      for (const cmd of analysis.commands) {
        if (
          cmd.dynamic.length > 0 ||
          Object.keys(cmd.env).length > 0 ||
          cmd.unwrappedFrom ||
          hasFileWrites(cmd)
        )
          continue;
        add(
          i,
          entry,
          kind,
          { type: 'command', argv: cmd.argv, text: formatCommandPattern(cmd.argv) },
          cmd,
        );
      }
      return;
    }
    const base = entry.sessionCwd ?? entry.projectRoot;
    for (const p of entry.paths) {
      if (!nodePath.isAbsolute(p) && base === undefined) continue;
      add(i, entry, kind, { type: 'path', path: nodePath.resolve(base ?? '/', p) });
    }
  });

  const opposite = (g: Group): Group | undefined => {
    for (const other of groups.values()) {
      if (
        other.decision !== g.decision &&
        other.agentId === g.agentId &&
        other.projectRoot === g.projectRoot &&
        other.kind === g.kind &&
        JSON.stringify(other.target) === JSON.stringify(g.target)
      )
        return other;
    }
    return undefined;
  };

  const existing = (options.existingRules ?? []).map((r, i) => compileRule(r, i));
  const now = options.now ?? Date.now();
  const makeId = options.newId ?? newId;
  const out: RuleSuggestion[] = [];
  for (const g of groups.values()) {
    const count = g.entries.size;
    if (count < threshold || opposite(g)) continue;
    const facts: RequestFacts = {
      agentId: g.agentId,
      sessionId: 'suggestion',
      sessionCwd: g.sample.sessionCwd ?? g.projectRoot ?? '/',
      ...(g.projectRoot ? { projectRoot: g.projectRoot } : {}),
      toolKind: g.kind,
      ...(g.target.type === 'path' ? { paths: [g.target.path] } : {}),
    };
    const prep = prepareRequest(facts, options.resolver);
    const alreadyDecided = existing.some((c) => {
      if (c.rule.action !== g.decision) return false;
      if (g.target.type === 'command' && g.cmd) {
        if (g.decision === 'allow') return allowCovers(c, prep, { type: 'command', cmd: g.cmd });
        return ruleInScope(c.rule, prep) && matchCommand(c, g.cmd, 'block', false) === 'yes';
      }
      const item = prep.paths[0];
      if (!item) return false;
      return g.decision === 'allow'
        ? allowCovers(c, prep, { type: 'path', path: item })
        : blockMatch(c, prep) === 'yes';
    });
    if (alreadyDecided) continue;

    const what = g.target.type === 'command' ? `\`${g.target.text}\`` : g.target.path;
    const verb = g.decision === 'allow' ? 'approved' : 'denied';
    const where = g.projectRoot ? ` in ${g.projectRoot}` : '';
    const message = `You ${verb} ${what} ${count} times${where}`;
    const rule: Rule = {
      id: makeId(),
      action: g.decision,
      agent: g.agentId,
      ...(g.projectRoot ? { project: g.projectRoot } : {}),
      toolKind: g.kind,
      ...(g.target.type === 'command'
        ? { command: g.target.text, commandMatch: 'exact' as const }
        : { path: escapeGlob(g.target.path) }),
      reason: message,
      createdAt: now,
      source: 'history',
    };
    out.push({
      rule,
      count,
      message,
      agentId: g.agentId,
      ...(g.projectRoot ? { projectRoot: g.projectRoot } : {}),
    });
  }
  return out.sort((a, b) => b.count - a.count || a.message.localeCompare(b.message));
}
