import { EXPORT_MAX_ROWS, type VoteOutcome } from '../../../shared/contract';
import type { HistoryItem } from '../../../shared/history';
import type { Rule } from '../../../shared/rules';
import { factsOf } from '../approvals/rules-gate';
import { settingsPath, SettingsError } from '../config/settings-file';
import { preview, suggestRules, validateRules } from '../rules';
import { LIST_MAX_ITEMS } from '../safety/limits';
import type { AgentInfo } from '../../../shared/domain';
import type { Core } from '../core';
import {
  assertWireOptionId,
  CANCEL_VOTE_SENTINEL,
  InvalidPolicyConfigError,
  SUPPORTED_POLICIES,
  type ConsensusProgress,
  type PermissionVoteOutcome,
} from '../mediator';
import { BadRequestError, ForbiddenError, NotFoundError } from './errors';
import type { Handlers } from './dispatch';

const VERSION = '0.1.0';

function toWire(outcome: PermissionVoteOutcome, progress: ConsensusProgress | null): VoteOutcome {
  if (outcome.kind !== 'recorded') return outcome;
  return {
    kind: 'recorded',
    votesNeeded: outcome.votesNeeded,
    tally: progress && {
      quorum: progress.quorum,
      votesNeeded: outcome.votesNeeded,
      voters: progress.voters,
      perOption: { ...outcome.tally },
    },
  };
}

/** Every command of the contract, implemented once over the core. */
export function createHandlers(core: Core): Handlers {
  const { sessions, pipeline, mediator, clients, store } = core;
  const agentInfo = (id: string): AgentInfo => {
    const a = core.settings.agents[id]!;
    return {
      id,
      name: a.name ?? id,
      command: a.command,
      args: a.args,
      cwd: a.cwd ?? null,
      mode: a.bypassPermissions ? 'bypassPermissions' : a.mode,
      policy: a.policy ?? core.policy.policy,
    };
  };
  /** Validated as a whole (ids unique, every rule can match), saved, then in force. */
  const replaceRules = (rules: Rule[]): Rule[] => {
    const checked = validateRules(rules);
    if (!checked.ok)
      throw new BadRequestError(checked.errors.map((e) => e.message).join('; '), checked.errors);
    core.saveSettings((json) => {
      json.rules = checked.rules;
    });
    core.settings.rules = checked.rules;
    suggestions = null;
    return checked.rules;
  };

  /** The newest decided requests with the facts the rule layer judges, for preview and suggestions. */
  const recentDecisions = (limit: number) => {
    const items: HistoryItem[] = [];
    let cursor: string | undefined;
    while (items.length < limit) {
      const page = store.history({
        limit: Math.min(500, limit - items.length),
        ...(cursor ? { cursor } : {}),
      });
      items.push(...page.items);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return items.flatMap((item) => {
      const detail = store.historyDetail(item.requestId);
      return detail ? [{ item, facts: factsOf(detail, detail.cwd) }] : [];
    });
  };

  // Suggestions read up to 2,000 decisions: computed once, again after a new decision or rule.
  let suggestions: { rule: Rule; count: number; message: string }[] | null = null;
  core.bus.subscribe((event) => {
    if (event.type === 'permission_resolved') suggestions = null;
  });
  const computeSuggestions = () =>
    suggestRules(
      recentDecisions(2000).flatMap(({ item, facts }) =>
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
      { existingRules: core.settings.rules, now: core.now() },
    ).map((s) => ({ rule: s.rule, count: s.count, message: s.message }));

  return {
    health: () => ({
      ok: true,
      version: VERSION,
      policy: core.policy.policy,
      supportedPolicies: [...SUPPORTED_POLICIES],
      pending: pipeline.pending.size,
      capabilities: ['permission_mediation', 'proof_of_possession', 'sse'],
    }),

    registerClient: (input, caller) => {
      // Over HTTP a client is a browser or an API client; it cannot pass for a desktop surface.
      if (caller.transport === 'http' && input.surface !== 'browser' && input.surface !== 'api') {
        throw new BadRequestError(
          `an HTTP client registers as browser or api, not ${input.surface}`,
        );
      }
      return clients.register(input.surface, input.label);
    },

    listAgents: () => Object.keys(core.settings.agents).map(agentInfo),

    setAgentBypass: (input) => {
      const agent = core.settings.agents[input.agentId];
      if (!agent) throw new NotFoundError(`no agent "${input.agentId}" in settings`);
      core.saveSettings((json) => {
        const agents = (json.agents ??= {}) as Record<string, Record<string, unknown>>;
        const entry = agents[input.agentId];
        if (entry) entry.bypassPermissions = input.enabled;
      });
      agent.bypassPermissions = input.enabled;
      return agentInfo(input.agentId);
    },

    getSettings: () => ({
      settings: core.savedSettings(),
      path: settingsPath(core.home),
      restartNeeded: core.restartNeeded(),
    }),

    updateSettings: (input) => {
      let restartNeeded: string[];
      try {
        restartNeeded = core.replaceSettings(input.settings);
      } catch (error) {
        if (error instanceof SettingsError || error instanceof InvalidPolicyConfigError) {
          throw new BadRequestError(error.message);
        }
        throw error;
      }
      return { settings: input.settings, path: settingsPath(core.home), restartNeeded };
    },

    listSessions: () => sessions.list(),

    createSession: async (input) => {
      const session = await sessions.create(input.agentId, input.cwd);
      return { sessionId: session.sessionId };
    },

    prompt: async (input, caller) => ({
      stopReason: await sessions.prompt(
        input.sessionId,
        input.text,
        caller.identityProven ? caller.clientId : null,
      ),
    }),

    cancelTurn: async (input) => {
      await sessions.cancel(input.sessionId);
      return { ok: true };
    },

    closeSession: async (input) => {
      await sessions.close(input.sessionId);
      return { ok: true };
    },

    setSessionMode: (input) => sessions.setMode(input.sessionId, input.mode),

    listApprovals: () => pipeline.pending.summaries(LIST_MAX_ITEMS),

    approvalDetail: (input) => {
      const approval = pipeline.pending.get(input.requestId);
      if (!approval) throw new NotFoundError(`no pending request ${input.requestId}`);
      return approval;
    },

    vote: (input, caller) => {
      const optionId = 'optionId' in input ? input.optionId : CANCEL_VOTE_SENTINEL;
      // A wire client must not be able to inject a cancel by naming the sentinel as an option.
      if ('optionId' in input) assertWireOptionId(input.optionId);
      const outcome = mediator.vote({
        requestId: input.requestId,
        clientId: caller.clientId ?? undefined,
        optionId,
        fromLoopback: caller.fromLoopback,
        identityProven: caller.identityProven,
        receivedAtMs: core.now(),
        metadata: {
          surface: caller.surface,
          ...('grant' in input && input.grant ? { grant: input.grant } : {}),
        },
      });
      return toWire(outcome, mediator.progress(input.requestId));
    },

    createApprovalLink: (input) => {
      const approval = pipeline.pending.get(input.requestId);
      if (!approval) throw new NotFoundError(`no pending request ${input.requestId}`);
      const token = core.links.issue(input.requestId, approval.expiresAt);
      return { token, path: `/#/link/${token}`, expiresAt: approval.expiresAt };
    },

    linkedApproval: (_input, caller) => {
      if (!caller.link) throw new ForbiddenError('this command needs an approval link');
      const approval = pipeline.pending.get(caller.link.requestId);
      if (!approval) throw new NotFoundError('the request of this link has been decided');
      return approval;
    },

    voteByLink: (input, caller) => {
      if (!caller.link) throw new ForbiddenError('this command needs an approval link');
      const { requestId, token } = caller.link;
      const approval = pipeline.pending.get(requestId);
      if (!approval) throw new NotFoundError('the request of this link has been decided');
      // A bad option must not burn the link; a good one spends it before the vote counts.
      if (!approval.options.some((o) => o.optionId === input.optionId)) {
        throw new BadRequestError(`unknown option ${input.optionId}`);
      }
      if (!core.links.consume(token)) throw new ForbiddenError('this approval link has been used');
      const outcome = mediator.vote({
        requestId,
        clientId: caller.clientId ?? undefined,
        optionId: input.optionId,
        fromLoopback: caller.fromLoopback,
        identityProven: true,
        receivedAtMs: core.now(),
        metadata: { surface: 'link' },
      });
      return toWire(outcome, mediator.progress(requestId));
    },

    extendApproval: (input) => {
      const expiresAt = mediator.extendTimeout(input.requestId, input.seconds * 1000);
      // The mediator announces the new deadline to every client (permission_extended).
      if (expiresAt == null) throw new NotFoundError(`no pending request ${input.requestId}`);
      return { expiresAt };
    },

    markDisplayed: (input) => {
      if (!pipeline.pending.markDisplayed(input.requestId)) {
        throw new NotFoundError(`no pending request ${input.requestId}`);
      }
      return { ok: true };
    },

    history: (input) => store.history(input),

    exportHistory: (input) => {
      const { format, ...filter } = input;
      const pages = store.exportHistory(filter, format);
      // One chunk per page of 500 rows (CSV adds a header chunk first).
      const maxChunks = EXPORT_MAX_ROWS / 500 + (format === 'csv' ? 1 : 0);
      const chunks: string[] = [];
      let truncated = false;
      for (const chunk of pages) {
        if (chunks.length === maxChunks) {
          truncated = true;
          break;
        }
        chunks.push(chunk);
      }
      const stamp = new Date(core.now()).toISOString().slice(0, 19).replace(/[:T]/g, '-');
      return {
        filename: `gatehouse-history-${stamp}.${format}`,
        mimeType: format === 'csv' ? 'text/csv' : 'application/x-ndjson',
        content: chunks.join(''),
        truncated,
      };
    },

    verifyAudit: async () => {
      await store.flush();
      return store.verifyChain();
    },

    listGrants: (input) => core.grants.list(input.includeInactive ?? false),

    revokeGrant: async (input) => {
      if (!(await core.grants.revoke(input.grantId, 'revoked by a person'))) {
        throw new NotFoundError(`no grant ${input.grantId} in force`);
      }
      return { ok: true };
    },

    listRules: () => core.settings.rules,

    saveRule: (input) => {
      if (input.rule.id !== input.ruleId)
        throw new BadRequestError('the rule id differs from the path');
      const rules = core.settings.rules.some((r) => r.id === input.ruleId)
        ? core.settings.rules.map((r) => (r.id === input.ruleId ? input.rule : r))
        : [...core.settings.rules, input.rule];
      return replaceRules(rules);
    },

    deleteRule: (input) => {
      if (!core.settings.rules.some((r) => r.id === input.ruleId)) {
        throw new NotFoundError(`no rule ${input.ruleId}`);
      }
      return replaceRules(core.settings.rules.filter((r) => r.id !== input.ruleId));
    },

    previewRule: (input) => {
      const checked = validateRules([input.rule]);
      if (!checked.ok)
        throw new BadRequestError(checked.errors.map((e) => e.message).join('; '), checked.errors);
      const decided = recentDecisions(input.limit);
      const hits = preview(
        input.rule,
        decided.map((d) => d.facts),
      );
      return {
        scanned: decided.length,
        matches: hits.map((hit) => ({ item: decided[hit.index]!.item, match: hit.match })),
      };
    },

    suggestRules: () => (suggestions ??= computeSuggestions()),

    historyDetail: (input) => {
      const detail = store.historyDetail(input.requestId);
      if (!detail) throw new NotFoundError(`no decided request ${input.requestId}`);
      return detail;
    },
  };
}
