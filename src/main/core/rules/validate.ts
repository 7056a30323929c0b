/**
 * Rules are checked once, when settings load: a rule that can never match is almost always a
 * mistake (a deny that silently protects nothing), so it is an error naming the rule.
 */
import nodePath from 'node:path';
import { parseCommandPattern } from './pattern';
import { globProblem } from './paths';
import { RuleSchema, type Rule, type ToolKind } from './types';

export interface RuleProblem {
  /** Position in the input list. */
  index: number;
  ruleId?: string;
  /** Human-readable, starts with the rule's name. */
  message: string;
}

export type ValidateResult = { ok: true; rules: Rule[] } | { ok: false; errors: RuleProblem[] };

export class RulesValidationError extends Error {
  constructor(readonly problems: RuleProblem[]) {
    super(`Invalid rules:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`);
    this.name = 'RulesValidationError';
  }
}

export function validateRules(input: unknown): ValidateResult {
  if (!Array.isArray(input)) {
    return { ok: false, errors: [{ index: -1, message: 'rules must be a list' }] };
  }
  const errors: RuleProblem[] = [];
  const rules: Rule[] = [];
  const ids = new Map<string, number>();
  input.forEach((raw: unknown, index) => {
    const rawId =
      typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string'
        ? (raw as { id: string }).id
        : undefined;
    const name = rawId ? `rule "${rawId}" (#${index + 1})` : `rule #${index + 1}`;
    const problem = (message: string): void => {
      errors.push({ index, ...(rawId ? { ruleId: rawId } : {}), message: `${name}: ${message}` });
    };
    const parsed = RuleSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        problem(`${at}${issue.message}`);
      }
      return;
    }
    const rule = parsed.data;
    const before = errors.length;
    const seenAt = ids.get(rule.id);
    if (seenAt !== undefined) problem(`duplicate id (also used by rule #${seenAt + 1})`);
    else ids.set(rule.id, index);

    const kinds: ToolKind[] | null =
      rule.toolKind === undefined
        ? null
        : Array.isArray(rule.toolKind)
          ? rule.toolKind
          : [rule.toolKind];
    if (kinds !== null && kinds.length === 0)
      problem('toolKind is an empty list, so the rule matches nothing');

    if (rule.command !== undefined && rule.path !== undefined) {
      problem(
        'a rule cannot have both `command` (execute) and `path` (file tools): one request never has both; write two rules',
      );
    }
    if (rule.command !== undefined) {
      if (kinds !== null && !kinds.includes('execute')) {
        problem(
          `\`command\` only matches shell commands, but toolKind ${JSON.stringify(rule.toolKind)} does not include "execute"`,
        );
      }
      const p = parseCommandPattern(rule.command);
      if (!p.ok) problem(`command pattern ${JSON.stringify(rule.command)}: ${p.error}`);
      else {
        const first = p.pattern.tokens[0];
        if (first?.kind === 'literal' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first.value)) {
          problem(
            'the command pattern starts with an assignment (`X=1`), but assignments are not part of the command words it is matched against',
          );
        }
      }
    } else if (rule.commandMatch !== undefined) {
      problem('`commandMatch` without `command`');
    }
    if (rule.path !== undefined) {
      if (kinds !== null && kinds.every((k) => k === 'execute')) {
        problem(
          '`path` never matches toolKind "execute" (shell commands are matched with `command`)',
        );
      }
      const g = globProblem(rule.path);
      if (g) problem(`path ${JSON.stringify(rule.path)}: ${g}`);
    }
    if (
      rule.project !== undefined &&
      !nodePath.isAbsolute(rule.project) &&
      !/^[A-Za-z]:[\\/]/.test(rule.project)
    ) {
      problem(`project ${JSON.stringify(rule.project)} must be an absolute path`);
    }
    if (errors.length === before) rules.push(rule);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rules };
}

/** validateRules, throwing a RulesValidationError that lists every problem. */
export function parseRules(input: unknown): Rule[] {
  const r = validateRules(input);
  if (!r.ok) throw new RulesValidationError(r.errors);
  return r.rules;
}
