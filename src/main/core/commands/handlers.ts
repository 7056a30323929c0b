import type { VoteOutcome } from '../../../shared/contract';
import type { AgentInfo } from '../../../shared/domain';
import type { Core } from '../core';
import { assertWireOptionId, CANCEL_VOTE_SENTINEL, SUPPORTED_POLICIES, type PermissionVoteOutcome } from '../mediator';
import { BadRequestError, NotFoundError } from './errors';
import type { Handlers } from './dispatch';

const VERSION = '0.1.0';

function toWire(outcome: PermissionVoteOutcome, voters: number | null): VoteOutcome {
  if (outcome.kind !== 'recorded') return outcome;
  return {
    kind: 'recorded',
    votesNeeded: outcome.votesNeeded,
    tally: voters == null ? null : { votesNeeded: outcome.votesNeeded, voters, perOption: { ...outcome.tally } },
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
        throw new BadRequestError(`an HTTP client registers as browser or api, not ${input.surface}`);
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

    listSessions: () => sessions.list(),

    createSession: async (input) => {
      const session = await sessions.create(input.agentId, input.cwd);
      return { sessionId: session.sessionId };
    },

    prompt: async (input, caller) => ({
      stopReason: await sessions.prompt(input.sessionId, input.text, caller.identityProven ? caller.clientId : null),
    }),

    cancelTurn: async (input) => {
      await sessions.cancel(input.sessionId);
      return { ok: true };
    },

    closeSession: async (input) => {
      await sessions.close(input.sessionId);
      return { ok: true };
    },

    setSessionMode: (input) => {
      const session = sessions.get(input.sessionId);
      session.mode = input.mode;
      return session.info();
    },

    listApprovals: () => pipeline.pending.list(),

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
        metadata: { surface: caller.surface },
      });
      return toWire(outcome, mediator.progress(input.requestId)?.voters ?? null);
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

    historyDetail: (input) => {
      const detail = store.historyDetail(input.requestId);
      if (!detail) throw new NotFoundError(`no decided request ${input.requestId}`);
      return detail;
    },
  };
}
