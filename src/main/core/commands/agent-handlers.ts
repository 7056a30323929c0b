// Settings → Agents: add, change and remove an agent. Each is a settings change like any other (one
// path: validated whole, audited, applied to waiting requests), and over HTTP one that chooses what
// an agent runs or loosens its sandbox waits for a person where Gatehouse runs. Only a person's
// client may ask: the bearer token alone is what an agent could find.
import type { AgentDraft } from '../../../shared/contract-commands-agents';
import type { AgentConfig, Settings } from '../../../shared/settings';
import { setupSnippets } from '../../../shared/setup-snippets';
import { installRoot, knownAgents } from '../agents/agents-on-path';
import { installedGatehouse } from '../agents/hooked-clis';
import { programProblem } from '../agents/program-check';
import { launchableAgent } from '../agents/registry-launch';
import { loadRegistrySnapshot } from '../agents/registry-snapshot';
import { agentFromDraft } from '../config/agent-draft';
import { describeIssues } from '../config/settings-file';
import type { Caller } from '../approvals/clients';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { actorOf } from './admin-audit';
import type { Handlers } from './dispatch';
import type { ChangeServices, SettingsChanger } from './settings-change';

type AgentCommands = 'addAgent' | 'updateAgent' | 'removeAgent' | 'knownAgents' | 'setupSnippets';

/** The gatehouse command of this install, as a person or an editor would run it. */
export function gatehouseCommand(): string[] {
  const entry = installedGatehouse();
  if (!entry) return ['gatehouse'];
  // The Node the core runs on is one that runs gatehouse; Electron's binary is not a Node.
  return [process.versions['electron'] ? 'node' : process.execPath, entry];
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function agentHandlers(
  services: ChangeServices,
  changer: SettingsChanger,
): Pick<Handlers, AgentCommands> {
  const { home } = services;

  const refuse = async (caller: Caller, agentId: string, reason: string): Promise<never> => {
    await changer.audit('agent_change_refused', actorOf(caller), { agentId, reason }, agentId);
    throw new ForbiddenError(reason);
  };

  /** The agent entry the draft makes, checked as a person would want it checked before saving. */
  const checked = (
    agentId: string,
    existing: AgentConfig | undefined,
    draft: AgentDraft,
    saved: Settings,
  ): AgentConfig => {
    if (!draft.registry && draft.command !== undefined && draft.command === '') {
      throw new BadRequestError(
        `the command of "${agentId}" is empty: name the program to run, or pick an agent of the ACP registry`,
      );
    }
    if (!existing && !draft.registry && draft.command === undefined) {
      throw new BadRequestError(
        `the command of "${agentId}" is empty: name the program to run, or pick an agent of the ACP registry`,
      );
    }
    const parsed = agentFromDraft(existing, draft);
    if (!parsed.success) {
      throw new BadRequestError(
        `agent "${agentId}": ${describeIssues(parsed.error).join('; ')}`,
        parsed.error.issues,
      );
    }
    const agent = parsed.data;
    const name = agent.name ?? agentId;
    for (const [id, other] of Object.entries(saved.agents)) {
      if (id !== agentId && sameName(other.name ?? id, name)) {
        throw new ConflictError(`another agent ("${id}") is already called "${name}"`);
      }
    }
    const launchChanged =
      !existing ||
      existing.command !== agent.command ||
      existing.registry !== agent.registry ||
      existing.env['PATH'] !== agent.env['PATH'];
    if (launchChanged) {
      let command: string;
      try {
        command = launchableAgent(agentId, agent, () => loadRegistrySnapshot(home)).command;
      } catch (error) {
        throw new BadRequestError(`agent "${agentId}": ${(error as Error).message}`);
      }
      const problem = programProblem(command, agent.env['PATH'] ?? process.env['PATH'] ?? '');
      if (problem) throw new BadRequestError(`agent "${agentId}": ${problem}`);
    }
    return agent;
  };

  const save = async (agentId: string, next: Settings, caller: Caller) => {
    const done = await changer.change(next, actorOf(caller));
    if ('confirmation' in done) return { agent: null, confirmation: done.confirmation };
    return { agent: next.agents[agentId] ? changer.agentInfo(agentId) : null };
  };

  return {
    addAgent: async ({ agentId, agent: draft }, caller) => {
      if (!caller.paired) await refuse(caller, agentId, 'only a paired client may add an agent');
      const saved = services.savedSettings();
      if (saved.agents[agentId]) {
        throw new ConflictError(
          `there is already an agent "${agentId}": edit it, or choose another id`,
        );
      }
      const agent = checked(agentId, undefined, draft, saved);
      return save(agentId, { ...saved, agents: { ...saved.agents, [agentId]: agent } }, caller);
    },

    updateAgent: async ({ agentId, agent: draft }, caller) => {
      if (!caller.paired) await refuse(caller, agentId, 'only a paired client may change an agent');
      const saved = services.savedSettings();
      const existing = saved.agents[agentId];
      if (!existing) throw new NotFoundError(`no agent "${agentId}" in settings`);
      const agent = checked(agentId, existing, draft, saved);
      return save(agentId, { ...saved, agents: { ...saved.agents, [agentId]: agent } }, caller);
    },

    removeAgent: async ({ agentId }, caller) => {
      if (!caller.paired) await refuse(caller, agentId, 'only a paired client may remove an agent');
      const saved = services.savedSettings();
      if (!saved.agents[agentId]) throw new NotFoundError(`no agent "${agentId}" in settings`);
      const agents = { ...saved.agents };
      delete agents[agentId];
      return save(agentId, { ...saved, agents }, caller);
    },

    knownAgents: () => knownAgents(process.env['PATH'] ?? '', installRoot()),

    setupSnippets: () => {
      const command = gatehouseCommand();
      const first = Object.keys(services.settings.agents)[0];
      return { command, ...setupSnippets(command, first) };
    },
  };
}
