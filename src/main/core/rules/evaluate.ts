/**
 * The decision that runs before a person is asked.
 *
 * Order (first that applies wins):
 *  0. the managed policy's rules alone, as in default mode: their deny → deny, their ask (or a
 *     deny/ask of theirs that might match a line that is not opaque) → ask, marked `managed`
 *  1. deny rules                      → deny
 *  2. ask rules                       → ask
 *     a deny/ask rule that only MIGHT match (a `$X` where its tokens are) → ask (also under
 *     bypassPermissions)
 *  3. plan mode, for writes/execution → deny
 *     a write to a protected file (a git hook, an editor task, a CLI's settings: resolved path)
 *     → ask, unless a managed allow rule covers it: no mode, grant or user rule allows it
 *  4. every item (each simple command of a shell line, or each path, or the kind itself) covered
 *     by an allow rule, a grant, or acceptEdits → allow; bypassPermissions → allow
 *  5. otherwise                       → ask
 *
 * Explicit ask rules still ask under bypassPermissions: they are a person's explicit wish, like
 * deny rules. An opaque shell line is never allowed except by bypassPermissions (and a line too
 * long or complex to analyse not even by that), and a request
 * without a tool kind is never allowed except by bypassPermissions.
 */
import { compareGrantNarrowness, grantApplies, grantCovers } from './grant-use';
import {
  acceptEditsCovers,
  allowCovers,
  blockMatch,
  compileRule,
  describeItem,
  itemsOf,
  mostSpecific,
  type CompiledRule,
  type Item,
} from './match';
import { ACCEPT_EDITS_PROTECTED, planDenies } from './modes';
import type { PathResolver } from './paths';
import { protectedReason, protectedWrites } from './protected';
import { prepareRequest } from './request';
import type { ProtectedEntry } from './protected-files';
import { previewConditionHolds } from './preview-condition';
import type { DecidedBy, Evaluation, EvaluationState, Grant, RequestFacts, Rule } from './types';

export interface EvaluateOptions {
  /** Path resolution (inject a fake filesystem in tests). */
  resolver?: PathResolver | undefined;
  /** Globs (relative to the session folder) acceptEdits does not auto-allow. */
  acceptEditsProtected?: readonly string[] | undefined;
  /** The protected files (default: rules/protected-files.ts's list). */
  protectedEntries?: readonly ProtectedEntry[] | undefined;
  /**
   * The git dirs the session folder links to, when the request already looked them up (its disk
   * facts, moments before); read here otherwise.
   */
  gitDirs?: readonly string[] | undefined;
}

export function evaluate(
  facts: RequestFacts,
  state: EvaluationState,
  options: EvaluateOptions = {},
): Evaluation {
  const prep = prepareRequest(facts, options.resolver);
  const mode = state.mode ?? 'default';
  const managedCount = state.managed?.length ?? 0;
  // Managed rules first in the list: on a tie of specificity the earlier rule wins.
  const rules = [...(state.managed ?? []), ...state.rules].map((r, i) => compileRule(r, i));
  const withAnalysis = prep.analysis ? { analysis: prep.analysis } : {};
  const result = (
    verdict: Evaluation['verdict'],
    decidedBy: DecidedBy,
    reason: string,
    deciders?: DecidedBy[],
  ): Evaluation => ({
    verdict,
    decidedBy,
    reason,
    ...withAnalysis,
    ...(deciders ? { deciders } : {}),
  });

  const yes: ByAction = { deny: [], ask: [] };
  const maybe: ByAction = { deny: [], ask: [] };
  for (const c of rules) {
    if (c.rule.action === 'allow') continue;
    const m = blockMatch(c, prep);
    if (m === 'yes') yes[c.rule.action].push(c);
    else if (m === 'maybe') maybe[c.rule.action].push(c);
  }

  // Why a rule might match: a path whose place is not known may lead where it names.
  const unknownPlace = [...prep.paths, ...prep.writes].find(
    (p) => p.real === null && p.dynamic !== true,
  );
  const maybeWhy = unknownPlace
    ? `where ${unknownPlace.input} leads could not be worked out`
    : 'parts of the command are only known when it runs';

  if (managedCount > 0) {
    const isManaged = (c: CompiledRule) => c.index < managedCount;
    const block = blocking(
      { deny: yes.deny.filter(isManaged), ask: yes.ask.filter(isManaged) },
      { deny: maybe.deny.filter(isManaged), ask: maybe.ask.filter(isManaged) },
      !prep.opaque,
      maybeWhy,
    );
    if (block)
      return { ...result(block.verdict, ruleDecider(block.rule), block.reason), managed: true };
  }
  // For an opaque line the "cannot be checked" reason (default ask, below) says more than "might
  // match"; only bypass mode needs the rule here, to keep it from allowing.
  const block = blocking(yes, maybe, !prep.opaque || mode === 'bypassPermissions', maybeWhy);
  if (block) return result(block.verdict, ruleDecider(block.rule), block.reason);

  if (mode === 'plan' && planDenies(prep.kind)) {
    return result(
      'deny',
      { type: 'mode', mode },
      `Plan mode: ${prep.kind ?? 'unlabelled'} tool calls are not allowed while planning (nothing may be written or run)`,
    );
  }

  const guarded = protectedWrites(prep, options.protectedEntries, options.gitDirs).filter(
    ({ path }) =>
      !rules.some(
        (c) =>
          c.index < managedCount &&
          c.rule.action === 'allow' &&
          allowCovers(c, prep, { type: 'path', path }),
      ),
  );
  if (guarded.length > 0)
    return {
      ...result('ask', { type: 'default' }, protectedReason(guarded)),
      protectedWrite: true,
    };
  // Paths the rules never saw may lead anywhere, a protected file among them: whatever the mode.
  const dropped = prep.facts.pathsDropped ?? 0;
  if (dropped > 0)
    return result(
      'ask',
      { type: 'default' },
      `It names ${dropped} more ${dropped === 1 ? 'path' : 'paths'} than the rules check, and where they lead is not known`,
    );

  const items = itemsOf(prep);
  if (typeof items === 'string') {
    const unknowable = prep.analysis?.kind === 'opaque' && prep.analysis.tooComplex === true;
    if (mode === 'bypassPermissions' && !unknowable)
      return result('allow', { type: 'mode', mode }, `Bypass permissions mode (${items})`);
    return result('ask', { type: 'default' }, capitalize(items));
  }

  const allowRules = rules.filter(
    (c) => c.rule.action === 'allow' && previewConditionHolds(c.rule, prep.facts),
  );
  const grants = state.grants
    .filter((g) => grantApplies(g, prep, state.now))
    .sort(compareGrantNarrowness);
  const protectedGlobs = options.acceptEditsProtected ?? ACCEPT_EDITS_PROTECTED;
  const covered: Array<{ item: Item; by: DecidedBy; label: string }> = [];
  const uncovered: Item[] = [];
  for (const item of items) {
    const rule = mostSpecific(allowRules.filter((c) => allowCovers(c, prep, item)));
    if (rule) {
      covered.push({ item, by: ruleDecider(rule.rule), label: `rule ${describeRule(rule.rule)}` });
      continue;
    }
    const grant: Grant | undefined = grants.find((g) => grantCovers(g, item));
    if (grant) {
      covered.push({
        item,
        by: { type: 'grant', grantId: grant.id },
        label: `a remembered ${grant.scope} grant`,
      });
      continue;
    }
    if (mode === 'acceptEdits' && acceptEditsCovers(prep, item, protectedGlobs)) {
      covered.push({
        item,
        by: { type: 'mode', mode },
        label: 'accept-edits mode (inside the session folder)',
      });
      continue;
    }
    uncovered.push(item);
  }

  if (uncovered.length === 0) {
    const deciders = dedupe(covered.map((c) => c.by));
    const first = deciders[0] as DecidedBy;
    const reason =
      covered.length === 1 || deciders.length === 1
        ? `Allowed by ${(covered[0] as { label: string }).label}`
        : `Allowed: ${covered.map((c) => `${describeItem(c.item)} by ${c.label}`).join('; ')}`;
    return result('allow', first, reason, deciders.length > 1 ? deciders : undefined);
  }
  if (mode === 'bypassPermissions')
    return result('allow', { type: 'mode', mode }, 'Bypass permissions mode');
  const list = uncovered.map(describeItem).join(', ');
  return result('ask', { type: 'default' }, `No rule, remembered grant or mode allows ${list}`);
}

type ByAction = Record<'deny' | 'ask', CompiledRule[]>;

/** The deny or ask rule that stops a request: one that matches, else one that might. */
function blocking(
  yes: ByAction,
  maybe: ByAction,
  heedMaybe: boolean,
  maybeWhy: string,
): { verdict: 'deny' | 'ask'; rule: Rule; reason: string } | undefined {
  const denied = mostSpecific(yes.deny);
  if (denied)
    return {
      verdict: 'deny',
      rule: denied.rule,
      reason: `Denied by rule ${describeRule(denied.rule)}`,
    };
  const asked = mostSpecific(yes.ask);
  if (asked)
    return {
      verdict: 'ask',
      rule: asked.rule,
      reason: `Rule ${describeRule(asked.rule)} says to ask`,
    };
  const might = heedMaybe ? (mostSpecific(maybe.deny) ?? mostSpecific(maybe.ask)) : undefined;
  if (!might) return undefined;
  return {
    verdict: 'ask',
    rule: might.rule,
    reason: `Might match ${might.rule.action} rule ${describeRule(might.rule)}: ${maybeWhy}`,
  };
}

function ruleDecider(rule: Rule): DecidedBy {
  return { type: 'rule', ruleId: rule.id };
}

export function describeRule(rule: Rule): string {
  const what =
    rule.command !== undefined
      ? ` (\`${rule.command}\`)`
      : rule.path !== undefined
        ? ` (${rule.path})`
        : '';
  return `"${rule.id}"${what}${rule.reason ? `: ${rule.reason}` : ''}`;
}

function dedupe(list: DecidedBy[]): DecidedBy[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = JSON.stringify(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
