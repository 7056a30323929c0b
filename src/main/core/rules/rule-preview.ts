/**
 * "Make this a rule": which past requests a draft rule would have matched, shown before it is
 * saved. Read-only over the requests it is given.
 */
import { allowCovers, blockMatch, compileRule, itemsOf } from './match';
import type { PathResolver } from './paths';
import { prepareRequest } from './request';
import type { RequestFacts, Rule } from './types';
import { RulesValidationError, validateRules } from './validate';

export interface PreviewHit<T> {
  index: number;
  request: T;
  /**
   * full: the rule alone would have decided this request (allow: covers every command/path;
   * deny/ask: matches). partial: an allow rule covers only some parts. maybe: a deny/ask rule
   * might match (run-time tokens).
   */
  match: 'full' | 'partial' | 'maybe';
}

/** Which past requests would `rule` have matched? Throws RulesValidationError for an invalid rule. */
export function preview<T extends RequestFacts>(
  rule: Rule,
  pastRequests: readonly T[],
  options: { resolver?: PathResolver } = {},
): PreviewHit<T>[] {
  const v = validateRules([rule]);
  if (!v.ok) throw new RulesValidationError(v.errors);
  const c = compileRule(rule, 0);
  const hits: PreviewHit<T>[] = [];
  pastRequests.forEach((request, index) => {
    const prep = prepareRequest(request, options.resolver);
    if (rule.action !== 'allow') {
      const m = blockMatch(c, prep);
      if (m !== 'no') hits.push({ index, request, match: m === 'yes' ? 'full' : 'maybe' });
      return;
    }
    const items = itemsOf(prep);
    if (typeof items === 'string') return;
    const n = items.filter((item) => allowCovers(c, prep, item)).length;
    if (n > 0) hits.push({ index, request, match: n === items.length ? 'full' : 'partial' });
  });
  return hits;
}
