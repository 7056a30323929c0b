import type { HistoryItem } from '../../../shared/history';
import type { Caller } from '../approvals/clients';
import type { Rule } from '../../../shared/rules';
import { factsOf } from '../approvals/rules-gate';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import { allowAnyReach, preview, suggestRules, validateRules } from '../rules';
import { isManagedRule } from '../config/managed-settings';
import { actorOf, auditAdmin } from './admin-audit';
import { refuseManaged } from './managed-refusal';
import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

type RuleCommands = 'listRules' | 'saveRule' | 'deleteRule' | 'previewRule' | 'suggestRules';

/**
 * The rules: edited one at a time, tried against past decisions, suggested from them. A change
 * applies to the requests already waiting too, once it is audited.
 */
export function ruleHandlers({
  settings,
  managed,
  saveSettings,
  store,
  bus,
  pipeline,
  now,
}: Pick<
  CommandServices,
  'settings' | 'managed' | 'saveSettings' | 'store' | 'bus' | 'pipeline' | 'now'
>): Pick<Handlers, RuleCommands> {
  // Suggestions read up to 2,000 decisions: computed once, again after a new decision or rule.
  let suggestions: Promise<{ rule: Rule; count: number; message: string }[]> | null = null;
  bus.subscribe((event) => {
    if (event.type === 'permission_resolved') suggestions = null;
  });

  /** Validated as a whole (ids unique, every rule can match), saved, then in force. */
  const replaceRules = (rules: Rule[]): Rule[] => {
    const checked = validateRules(rules);
    if (!checked.ok)
      throw new BadRequestError(checked.errors.map((e) => e.message).join('; '), checked.errors);
    saveSettings((json) => {
      json.rules = checked.rules;
    });
    settings.rules = checked.rules;
    suggestions = null;
    return checked.rules;
  };

  /** A managed rule is the administrator's: the user cannot edit, replace or remove it. */
  const refuseManagedRule = async (ruleId: string, caller: Caller, verb: string) => {
    if (managed && isManagedRule(managed, ruleId)) {
      await refuseManaged(
        store,
        managed,
        caller,
        `rule "${ruleId}" is a managed rule and cannot be ${verb}`,
        {
          ruleId,
        },
      );
    }
  };

  /** The newest decided requests with the facts the rule layer judges, for preview and suggestions. */
  const recentDecisions = async (limit: number) => {
    const items: HistoryItem[] = [];
    let cursor: string | undefined;
    while (items.length < limit) {
      const page = await store.history({
        limit: Math.min(500, limit - items.length),
        ...(cursor ? { cursor } : {}),
      });
      items.push(...page.items);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const details = await Promise.all(items.map((item) => store.historyDetail(item.requestId)));
    return items.flatMap((item, i) => {
      const detail = details[i];
      return detail ? [{ item, facts: factsOf(detail, detail.cwd) }] : [];
    });
  };

  const computeSuggestions = async () =>
    suggestRules(
      (await recentDecisions(2000)).flatMap(({ item, facts }) =>
        item.reply.outcome === 'selected'
          ? [
              {
                ...facts,
                paths: facts.paths ?? [],
                decision: item.reply.optionKind.startsWith('allow')
                  ? ('allow' as const)
                  : ('deny' as const),
                decidedBy: item.decider.type,
              },
            ]
          : [],
      ),
      { existingRules: settings.rules, now: now() },
    ).map((s) => ({ rule: s.rule, count: s.count, message: s.message }));

  return {
    listRules: () => settings.rules,

    saveRule: async (input, caller) => {
      if (input.rule.id !== input.ruleId)
        throw new BadRequestError('the rule id differs from the path');
      await refuseManagedRule(input.ruleId, caller, 'changed');
      const allowsAny = allowAnyReach(input.rule);
      if (allowsAny !== null && input.confirmAllowAny !== true) {
        await auditAdmin(store, 'rule_refused', actorOf(caller), {
          ruleId: input.ruleId,
          rule: input.rule,
          reason: `it allows ${allowsAny} and was not confirmed`,
        });
        throw new ForbiddenError(
          `rule "${input.ruleId}" allows ${allowsAny}: it is saved only when confirmed, as Bypass is (confirmAllowAny)`,
        );
      }
      const before = settings.rules.find((r) => r.id === input.ruleId) ?? null;
      const rules = before
        ? settings.rules.map((r) => (r.id === input.ruleId ? input.rule : r))
        : [...settings.rules, input.rule];
      const saved = replaceRules(rules);
      await auditAdmin(store, 'rule_saved', actorOf(caller), {
        ruleId: input.ruleId,
        before,
        after: saved.find((r) => r.id === input.ruleId) ?? input.rule,
        ...(allowsAny !== null ? { confirmedAllowAny: allowsAny } : {}),
      });
      pipeline.rejudgePending();
      return saved;
    },

    deleteRule: async (input, caller) => {
      await refuseManagedRule(input.ruleId, caller, 'deleted');
      const removed = settings.rules.find((r) => r.id === input.ruleId);
      if (!removed) throw new NotFoundError(`no rule ${input.ruleId}`);
      const saved = replaceRules(settings.rules.filter((r) => r.id !== input.ruleId));
      await auditAdmin(store, 'rule_deleted', actorOf(caller), {
        ruleId: input.ruleId,
        rule: removed,
      });
      // Without an ask rule, what waits may now be allowed (by Bypass, say).
      pipeline.rejudgePending();
      return saved;
    },

    previewRule: async (input) => {
      const checked = validateRules([input.rule]);
      if (!checked.ok)
        throw new BadRequestError(checked.errors.map((e) => e.message).join('; '), checked.errors);
      const decided = await recentDecisions(input.limit);
      const hits = preview(
        input.rule,
        decided.map((d) => d.facts),
      );
      return {
        allowsAny: allowAnyReach(checked.rules[0]!),
        scanned: decided.length,
        matches: hits.map((hit) => ({ item: decided[hit.index]!.item, match: hit.match })),
      };
    },

    suggestRules: () =>
      (suggestions ??= computeSuggestions().catch((error: unknown) => {
        suggestions = null;
        throw error;
      })),
  };
}
