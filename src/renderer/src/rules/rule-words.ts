// A rule's conditions in words, for the rules list.
import type { Rule } from '../../../shared/rules';

/**
 * "only when its preview changes nothing outside build/, dist/"; "only when its preview changes
 * nothing" for an empty list; null for a rule without the condition.
 */
export function previewConditionWords(rule: Pick<Rule, 'whenPreviewChangesOnly'>): string | null {
  const only = rule.whenPreviewChangesOnly;
  if (only === undefined) return null;
  if (only.length === 0) return 'only when its preview changes nothing';
  const folders = only.map((f) => (f.endsWith('/') ? f : `${f}/`));
  return `only when its preview changes nothing outside ${folders.join(', ')}`;
}
