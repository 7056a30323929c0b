import { homedir } from 'node:os';
import { EXPORT_MAX_ROWS, type VoteOutcome } from '../../../shared/contract';
import type { HistoryItem } from '../../../shared/history';
import type { Rule } from '../../../shared/rules';
import type { Settings } from '../../../shared/settings';
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
import {
  launchChangedAgents,
  sandboxWidenedAgents,
  settingsChanges,
} from '../config/settings-diff';
import { actorOf, auditAdmin, type Actor } from './admin-audit';
import { BadRequestError, ForbiddenError, NotFoundError } from './errors';
import type { Handlers } from './dispatch';
import { SettingsConfirmations } from './settings-confirmation';
import { allowTarget, TargetRefused } from '../sandbox/allow-target';
import { PAIRING_CODE_TTL_MS, type Caller } from '../approvals/clients';
import { logger } from '../log/logger';

const log = logger('settings');

const VERSION = '0.1.0';

/** Commands that change who counts as a person: a desktop surface or a paired client only. */
function requirePaired(caller: Caller, what: string): void {
  if (!caller.paired) throw new ForbiddenError(`only a paired client may ${what}`);
}

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
  const audit = (type: string, by: Actor, payload: Record<string, unknown>, agentId?: string) =>
    auditAdmin(store, type, by, payload, agentId ? { agentId } : {});

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

  const asBadRequest = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof SettingsError || error instanceof InvalidPolicyConfigError) {
        throw new BadRequestError(error.message);
      }
      throw error;
    }
  };

  /** Replaces the settings and audits what changed, by whom (and who confirmed it, if anyone). */
  const applySettings = async (next: Settings, by: Actor, confirmedBy?: Actor) => {
    const before = core.savedSettings();
    const restartNeeded = asBadRequest(() => core.replaceSettings(next));
    const changes = settingsChanges(before, core.savedSettings());
    if (Object.keys(changes).length > 0) {
      await audit('settings_changed', by, { changes, ...(confirmedBy ? { confirmedBy } : {}) });
    }
    return { settings: next, path: settingsPath(core.home), restartNeeded };
  };

  const confirmations = new SettingsConfirmations({
    now: core.now,
    confirmLocally: core.confirmLocally,
    saved: () => core.savedSettings(),
    apply: applySettings,
    audit: (type, by, payload) => audit(type, by, payload),
    report: (error) => log.error('a confirmed settings change failed:', error),
  });

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

    pairClient: (input) => {
      const paired = clients.pair(input.pairingSecret, input.label, input.surface);
      if (!paired) throw new ForbiddenError('unknown, used or expired pairing secret');
      return paired;
    },

    createPairingCode: (_input, caller) => {
      requirePaired(caller, 'make a pairing code');
      const { secret, expiresAt } = clients.issuePairingSecret(PAIRING_CODE_TTL_MS, caller.clientId);
      return { secret, path: `/#pair=${secret}`, expiresAt };
    },

    listClients: () => clients.list(),

    revokeClient: (input, caller) => {
      requirePaired(caller, 'revoke a client');
      if (!clients.revoke(input.clientId, caller.clientId)) {
        throw new NotFoundError(`no client ${input.clientId} that can be revoked`);
      }
      return { ok: true };
    },

    listAgents: () => Object.keys(core.settings.agents).map(agentInfo),

    setAgentBypass: async (input, caller) => {
      const agent = core.settings.agents[input.agentId];
      if (!agent) throw new NotFoundError(`no agent "${input.agentId}" in settings`);
      const before = agent.bypassPermissions;
      core.saveSettings((json) => {
        const agents = (json.agents ??= {}) as Record<string, Record<string, unknown>>;
        const entry = agents[input.agentId];
        if (entry) entry.bypassPermissions = input.enabled;
      });
      agent.bypassPermissions = input.enabled;
      await audit(
        'bypass_changed',
        actorOf(caller),
        { agentId: input.agentId, before, after: input.enabled },
        input.agentId,
      );
      return agentInfo(input.agentId);
    },

    allowSandboxTarget: async (input, caller) => {
      const by = actorOf(caller);
      const saved = core.savedSettings();
      const agent = saved.agents[input.agentId];
      if (!agent) throw new NotFoundError(`no agent "${input.agentId}" in settings`);
      let allowed;
      try {
        allowed = allowTarget(agent, input, {
          gatehouseHome: core.home,
          homes: [homedir(), ...(agent.env['HOME'] ? [agent.env['HOME']] : [])],
        });
      } catch (error) {
        if (!(error instanceof TargetRefused)) throw error;
        await audit(
          'sandbox_allow_refused',
          by,
          { kind: input.kind, target: input.target, reason: error.message },
          input.agentId,
        );
        throw new BadRequestError(error.message);
      }
      const next = { ...saved, agents: { ...saved.agents, [input.agentId]: allowed.agent } };
      const result = { agentId: input.agentId, entry: allowed.entry };
      // Over HTTP it widens what an agent may do: whoever holds the token may be that agent.
      if (caller.transport === 'http') {
        asBadRequest(() => core.checkSettings(next));
        const what = input.kind === 'write' ? `write in ${allowed.entry}` : `connect to ${allowed.entry}`;
        const confirmation = await confirmations.request(next, [input.agentId], by, {
          [input.agentId]: [what],
        });
        return { ...result, confirmation };
      }
      await applySettings(next, by);
      return result;
    },

    getSettings: () => ({
      settings: core.savedSettings(),
      path: settingsPath(core.home),
      restartNeeded: core.restartNeeded(),
    }),

    updateSettings: async (input, caller) => {
      const by = actorOf(caller);
      // A remote caller may not choose the program Gatehouse spawns, nor loosen an agent's
      // sandbox: a person confirms it locally.
      const saved = core.savedSettings();
      const launches =
        caller.transport === 'http' ? launchChangedAgents(saved, input.settings) : [];
      const widens =
        caller.transport === 'http' ? sandboxWidenedAgents(saved, input.settings) : {};
      const agentIds = [...new Set([...launches, ...Object.keys(widens)])];
      if (agentIds.length === 0) return applySettings(input.settings, by);
      asBadRequest(() => core.checkSettings(input.settings));
      const confirmation = await confirmations.request(input.settings, agentIds, by, widens);
      return {
        settings: core.savedSettings(),
        path: settingsPath(core.home),
        restartNeeded: core.restartNeeded(),
        confirmation,
      };
    },

    confirmSettingsChange: (input, caller) =>
      confirmations.confirm(input.id, input.code, actorOf(caller)),

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
      // A vote over the API from a client no person paired is "api (unpaired)": it counts where
      // anyone's vote counts (first-responder, local-only) and is refused where a person must decide.
      const person = caller.paired;
      const outcome = mediator.vote({
        requestId: input.requestId,
        clientId: person ? (caller.clientId ?? undefined) : undefined,
        optionId,
        fromLoopback: caller.fromLoopback,
        identityProven: person,
        receivedAtMs: core.now(),
        metadata: {
          surface: person ? caller.surface : 'api',
          ...(person ? {} : { paired: false }),
          ...('grant' in input && input.grant ? { grant: input.grant } : {}),
        },
      });
      return toWire(outcome, mediator.progress(input.requestId));
    },

    createApprovalLink: (input, caller) => {
      // A link votes as a person; only a person's client may hand one out.
      requirePaired(caller, 'create an approval link');
      const approval = pipeline.pending.get(input.requestId);
      if (!approval) throw new NotFoundError(`no pending request ${input.requestId}`);
      const { token, linkId } = core.links.issue(input.requestId);
      store.recordEvent({
        type: 'link_created',
        requestId: input.requestId,
        sessionId: approval.sessionId,
        payload: { linkId, by: caller.clientId, expiresAt: approval.expiresAt },
      });
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
      // A bad option must not burn the link.
      if (!approval.options.some((o) => o.optionId === input.optionId)) {
        throw new BadRequestError(`unknown option ${input.optionId}`);
      }
      // The vote and the spending of the link are one step; a refused vote leaves the link usable.
      const outcome = core.links.spend(
        token,
        () =>
          mediator.vote({
            requestId,
            clientId: caller.clientId ?? undefined,
            optionId: input.optionId,
            fromLoopback: caller.fromLoopback,
            identityProven: true,
            receivedAtMs: core.now(),
            metadata: { surface: 'link' },
          }),
        (result) => result.kind === 'forbidden',
      );
      if (!outcome) throw new ForbiddenError('this approval link has been used');
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

    revokeGrant: async (input, caller) => {
      if (!(await core.grants.revoke(input.grantId, 'revoked by a person'))) {
        throw new NotFoundError(`no grant ${input.grantId} in force`);
      }
      const grant = core.grants.get(input.grantId);
      await audit(
        'grant_revoked',
        actorOf(caller),
        { grantId: input.grantId, scope: grant?.scope ?? null },
        grant?.agentId,
      );
      return { ok: true };
    },

    listRules: () => core.settings.rules,

    saveRule: async (input, caller) => {
      if (input.rule.id !== input.ruleId)
        throw new BadRequestError('the rule id differs from the path');
      const before = core.settings.rules.find((r) => r.id === input.ruleId) ?? null;
      const rules = before
        ? core.settings.rules.map((r) => (r.id === input.ruleId ? input.rule : r))
        : [...core.settings.rules, input.rule];
      const saved = replaceRules(rules);
      await audit('rule_saved', actorOf(caller), {
        ruleId: input.ruleId,
        before,
        after: saved.find((r) => r.id === input.ruleId) ?? input.rule,
      });
      return saved;
    },

    deleteRule: async (input, caller) => {
      const removed = core.settings.rules.find((r) => r.id === input.ruleId);
      if (!removed) throw new NotFoundError(`no rule ${input.ruleId}`);
      const saved = replaceRules(core.settings.rules.filter((r) => r.id !== input.ruleId));
      await audit('rule_deleted', actorOf(caller), { ruleId: input.ruleId, rule: removed });
      return saved;
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
