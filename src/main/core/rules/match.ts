/**
 * Does a rule match a prepared request? Two questions with different answers on purpose:
 *
 * - block (deny/ask): "could this rule apply?" Wide: a command pattern is checked against every
 *   visible simple command (even of an opaque line) and against the command name's basename
 *   (`/bin/rm` is `rm`); a token only known at run time (`$X`, `*.ts`) gives "maybe"; paths match
 *   by lexical OR real path, dot-files included.
 * - allow: "does this rule cover this item?" Narrow: exact command name, no run-time tokens in
 *   the compared positions, no file writes through redirects, real paths only.
 */
import picomatch from 'picomatch';
import { ACCEPT_EDITS_KINDS, ACCEPT_EDITS_PROTECTED } from './modes';
import {
  parseCommandPattern,
  patternWeight,
  tokenMatches,
  type CommandPattern,
  type PatternToken,
} from './pattern';
import type { ResolvedPath } from './paths';
import { hasFileWrites, normalizeRoot, type PreparedRequest } from './request';
import { commandBasename } from './shell/programs';
import type { Rule, SimpleCommand, ToolKind } from './types';

export type Tri = 'yes' | 'maybe' | 'no';

export interface CompiledRule {
  rule: Rule;
  index: number;
  kinds: readonly ToolKind[] | null;
  command: CommandPattern | null;
  exact: boolean;
  specificity: number[];
}

export type Item =
  | { type: 'command'; cmd: SimpleCommand }
  | { type: 'path'; path: ResolvedPath }
  | { type: 'kind'; kind: ToolKind };

const compiledCache = new WeakMap<
  Rule,
  Omit<CompiledRule, 'index' | 'specificity'> & { weight: number }
>();

/** The tool kinds a rule is limited to, or null for every kind. */
export function ruleKinds(rule: Rule): readonly ToolKind[] | null {
  if (rule.toolKind === undefined) return null;
  return Array.isArray(rule.toolKind) ? rule.toolKind : [rule.toolKind];
}

/** Compile a rule (cached per rule object). Throws on a pattern validateRules would reject. */
export function compileRule(rule: Rule, index: number): CompiledRule {
  let c = compiledCache.get(rule);
  if (!c) {
    let command: CommandPattern | null = null;
    if (rule.command !== undefined) {
      const parsed = parseCommandPattern(rule.command);
      if (!parsed.ok)
        throw new Error(`rule "${rule.id}": invalid command pattern: ${parsed.error}`);
      command = parsed.pattern;
    }
    const kinds = ruleKinds(rule);
    const weight = command
      ? patternWeight(command)
      : rule.path !== undefined
        ? rule.path.replace(/[*?[\]{}()!]/g, '').length
        : 0;
    c = { rule, kinds, command, exact: rule.commandMatch === 'exact', weight };
    compiledCache.set(rule, c);
  }
  return {
    rule,
    index,
    kinds: c.kinds,
    command: c.command,
    exact: c.exact,
    // Specificity, compared left to right: has a command/path pattern; how literal that pattern
    // is (exact beats prefix); narrower tool kinds; project set; agent set; earlier in the list.
    specificity: [
      c.command || rule.path !== undefined ? 1 : 0,
      c.weight + (c.exact ? 10_000 : 0),
      c.kinds ? 100 - c.kinds.length : 0,
      rule.project !== undefined ? 1 : 0,
      rule.agent !== undefined ? 1 : 0,
      -index,
    ],
  };
}

export function compareSpecificity(a: CompiledRule, b: CompiledRule): number {
  for (let i = 0; i < a.specificity.length; i++) {
    const d = (b.specificity[i] ?? 0) - (a.specificity[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function mostSpecific(rules: CompiledRule[]): CompiledRule | undefined {
  return [...rules].sort(compareSpecificity)[0];
}

export function ruleInScope(rule: Rule, prep: PreparedRequest): boolean {
  if (rule.agent !== undefined && rule.agent !== prep.facts.agentId) return false;
  if (rule.project !== undefined && prep.projectRoot !== normalizeRoot(rule.project)) return false;
  return true;
}

/** Token-wise match of a pattern against one argv. */
export function matchArgv(
  tokens: readonly PatternToken[],
  exact: boolean,
  argv: readonly string[],
  dynamic: ReadonlySet<number>,
  purpose: 'allow' | 'block',
  caseInsensitiveName = false,
): Tri {
  if (argv.length === 0) return 'no';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as PatternToken;
    if (i >= argv.length) return 'no';
    if (dynamic.has(i)) return purpose === 'block' ? 'maybe' : 'no';
    const word = argv[i] as string;
    let ok = tokenMatches(token, word);
    if (!ok && i === 0 && purpose === 'block') {
      ok =
        tokenMatches(token, word, caseInsensitiveName) ||
        tokenMatches(token, commandBasename(word), caseInsensitiveName);
    }
    if (!ok) return 'no';
  }
  if (exact && argv.length !== tokens.length) {
    // A run-time token past the pattern might expand to nothing.
    if (purpose === 'block' && [...dynamic].some((d) => d >= tokens.length)) return 'maybe';
    return 'no';
  }
  return 'yes';
}

export function matchCommand(
  c: CompiledRule,
  cmd: SimpleCommand,
  purpose: 'allow' | 'block',
  caseInsensitiveName: boolean,
): Tri {
  if (!c.command) return 'no';
  const dyn = new Set(cmd.dynamic);
  let result = matchArgv(c.command.tokens, c.exact, cmd.argv, dyn, purpose, caseInsensitiveName);
  if (result !== 'yes' && purpose === 'block' && cmd.unwrappedFrom) {
    // `env X=1 rm` also answers to a rule about `env`.
    const offset = cmd.unwrappedFrom.length - cmd.argv.length;
    const outer = matchArgv(
      c.command.tokens,
      c.exact,
      cmd.unwrappedFrom,
      new Set(cmd.dynamic.map((d) => d + offset)),
      purpose,
      caseInsensitiveName,
    );
    if (outer === 'yes' || (outer === 'maybe' && result === 'no')) result = outer;
  }
  return result;
}

function kindListed(c: CompiledRule, kind: ToolKind | undefined): boolean {
  return c.kinds === null || (kind !== undefined && c.kinds.includes(kind));
}

/** Could this deny/ask rule apply to the request? */
export function blockMatch(c: CompiledRule, prep: PreparedRequest): Tri {
  if (!ruleInScope(c.rule, prep)) return 'no';
  if (c.command) {
    // Any request carrying shell text, whatever kind the agent labelled it with.
    let result: Tri = 'no';
    for (const part of prep.parts) {
      const r = matchCommand(c, part, 'block', prep.resolver.caseInsensitive);
      if (r === 'yes') return 'yes';
      if (r === 'maybe') result = 'maybe';
    }
    return result;
  }
  const glob = c.rule.path;
  if (glob !== undefined) {
    let result: Tri = 'no';
    // An 'other' or unlabelled request may be anything, so kind-restricted path rules still apply.
    const kindOk = kindListed(c, prep.kind) || prep.kind === undefined || prep.kind === 'other';
    if (kindOk) {
      for (const p of prep.paths) {
        if (prep.resolver.matchGlob(glob, p, prep.root, 'block', prep.lookups)) return 'yes';
        // Where it leads is not known: it may lead where the rule names.
        if (p.real === null) result = 'maybe';
      }
    }
    // Shell redirections write files: they answer to path rules about edits.
    if (c.kinds === null || c.kinds.includes('edit')) {
      for (const w of prep.writes) {
        if (w.dynamic) result = 'maybe';
        else if (prep.resolver.matchGlob(glob, w, prep.root, 'block', prep.lookups)) return 'yes';
        else if (w.real === null) result = 'maybe';
      }
    }
    return result;
  }
  return kindListed(c, prep.kind) && (c.kinds === null || prep.kind !== undefined) ? 'yes' : 'no';
}

/** Does this allow rule cover one item of the request? */
export function allowCovers(c: CompiledRule, prep: PreparedRequest, item: Item): boolean {
  if (!ruleInScope(c.rule, prep)) return false;
  if (prep.kind === undefined || !kindListed(c, prep.kind)) return false;
  switch (item.type) {
    case 'command':
      if (c.rule.path !== undefined) return false;
      if (!c.command) return true; // "allow execute" (or everything for an agent): the person's call
      if (hasFileWrites(item.cmd)) return false;
      return matchCommand(c, item.cmd, 'allow', false) === 'yes';
    case 'path':
      if (c.command) return false;
      if (c.rule.path === undefined) return true;
      return prep.resolver.matchGlob(c.rule.path, item.path, prep.root, 'allow', prep.lookups);
    case 'kind':
      return !c.command && c.rule.path === undefined;
  }
}

/** The things that must each be allowed for the request to be allowed, or why nothing can be. */
export function itemsOf(prep: PreparedRequest): Item[] | string {
  const kind = prep.kind;
  if (kind === undefined) return 'the request does not say what kind of tool call it is';
  if (kind === 'execute') {
    if (!prep.hasCommandText || !prep.analysis) return 'the request carries no command text';
    if (prep.analysis.kind === 'opaque') {
      return `the command cannot be checked automatically: ${prep.analysis.reasons.join('; ')}`;
    }
    if (prep.analysis.commands.length === 0) return 'the command runs nothing that rules can check';
    return prep.analysis.commands.map((cmd) => ({ type: 'command', cmd }));
  }
  if (prep.paths.length > 0) return prep.paths.map((path) => ({ type: 'path', path }));
  return [{ type: 'kind', kind }];
}

/** acceptEdits: an edit/delete/move path that really lies inside the session folder. */
export function acceptEditsCovers(
  prep: PreparedRequest,
  item: Item,
  protectedGlobs: readonly string[] = ACCEPT_EDITS_PROTECTED,
): boolean {
  if (item.type !== 'path' || prep.kind === undefined || !ACCEPT_EDITS_KINDS.has(prep.kind))
    return false;
  const root = prep.root.real;
  const real = item.path.real;
  if (root === null || real === null) return false;
  const rel = prep.resolver.relative(root, real);
  if (rel === null || rel === '') return false;
  return !picomatch.isMatch(rel, [...protectedGlobs], { dot: true, nocase: true, windows: false });
}

export function describeItem(item: Item): string {
  switch (item.type) {
    case 'command':
      return `\`${item.cmd.text}\``;
    case 'path':
      return item.path.input;
    case 'kind':
      return `this ${item.kind} request`;
  }
}
