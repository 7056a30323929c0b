// The commands that add, change and remove an agent in settings (Settings → Agents), the agents
// Gatehouse knows how to start, and the setup lines for editors and terminals on this install.
import { z } from 'zod';
import { command } from './contract-command';
import { AgentInfo, Id } from './domain';
import { RegistryAgentId } from './registry-format';
import { HostEntry, SandboxMode } from './sandbox-settings';
import { AgentIdKey } from './settings';

/** Bounds on what one agent's entry may hold, checked before anything looks at it. */
export const AGENT_LIMITS = {
  name: 100,
  command: 4096,
  args: 64,
  arg: 4096,
  env: 64,
  envName: 256,
  envValue: 16_384,
  path: 4096,
  paths: 64,
} as const;

const EnvName = z
  .string()
  .min(1)
  .max(AGENT_LIMITS.envName)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable: letters, digits and _');

/**
 * What the agent form sets. Absent keys keep what the agent has (on a change) or take the
 * defaults (a new agent); its mode, Bypass and policy have controls of their own.
 */
export const AgentDraft = z
  .object({
    name: z.string().trim().max(AGENT_LIMITS.name).optional(),
    /** The program to run, a name on the PATH or an absolute path; or `registry`. */
    command: z.string().trim().max(AGENT_LIMITS.command).optional(),
    registry: RegistryAgentId.optional(),
    args: z.array(z.string().max(AGENT_LIMITS.arg)).max(AGENT_LIMITS.args).optional(),
    /** A value of null keeps the value the agent has (values are not sent back to be shown). */
    env: z
      .record(EnvName, z.string().max(AGENT_LIMITS.envValue).nullable())
      .refine((env) => Object.keys(env).length <= AGENT_LIMITS.env, {
        message: `environment: at most ${AGENT_LIMITS.env} variables`,
      })
      .optional(),
    /** Empty: the session folder. */
    cwd: z.string().trim().max(AGENT_LIMITS.path).optional(),
    sandbox: SandboxMode.optional(),
    /** `default`: the agent's model API hosts (and its *_BASE_URL variables') only. */
    network: z
      .union([
        z.enum(['default', 'all', 'none']),
        z.object({ allow: z.array(HostEntry).max(AGENT_LIMITS.paths) }).strict(),
      ])
      .optional(),
    allowWrite: z
      .array(z.string().min(1).max(AGENT_LIMITS.path))
      .max(AGENT_LIMITS.paths)
      .optional(),
    allowUnsandboxed: z.boolean().optional(),
    /** Its commands are tried in a throwaway copy before anyone is asked. */
    preview: z.boolean().optional(),
  })
  .strict();
export type AgentDraft = z.infer<typeof AgentDraft>;

/** Set when nothing was applied yet: the change waits for a person where Gatehouse runs. */
const Waiting = z.object({
  id: z.uuid(),
  expiresAt: z.number(),
  agents: z.array(z.string()),
  how: z.enum(['code', 'dialog']),
});

const AgentChanged = z.object({
  /** The agent as it is now (null once removed, or while the change waits). */
  agent: AgentInfo.nullable(),
  confirmation: Waiting.optional(),
});

const waitingStatus = (output: z.output<typeof AgentChanged>) => (output.confirmation ? 202 : 200);

export const KnownAgentOffer = z.object({
  id: AgentIdKey,
  name: z.string().max(AGENT_LIMITS.name),
  /** The program found on the PATH (absolute), or what to run when it is not installed. */
  command: z.string().max(AGENT_LIMITS.command),
  args: z.array(z.string().max(AGENT_LIMITS.arg)).max(AGENT_LIMITS.args),
  found: z.boolean(),
  note: z.string().max(1000).nullable(),
});
export type KnownAgentOffer = z.infer<typeof KnownAgentOffer>;

export const agentCommands = {
  addAgent: command({
    input: z.object({ agentId: AgentIdKey, agent: AgentDraft }).strict(),
    output: AgentChanged,
    http: { method: 'POST', path: '/api/agents', status: waitingStatus },
    summary:
      'Add an agent to settings (an id already taken, an empty command or a program that is not there is refused). Over HTTP it waits for a local confirmation. Paired clients only.',
  }),
  updateAgent: command({
    input: z.object({ agentId: Id, agent: AgentDraft }).strict(),
    output: AgentChanged,
    http: { method: 'PUT', path: '/api/agents/:agentId', status: waitingStatus },
    summary:
      "Change an agent's name, command, arguments, environment, folder or sandbox. Over HTTP a change of what it runs or a looser sandbox waits for a local confirmation. Paired clients only.",
  }),
  removeAgent: command({
    input: z.object({ agentId: Id }).strict(),
    output: AgentChanged,
    http: { method: 'DELETE', path: '/api/agents/:agentId' },
    summary:
      'Remove an agent from settings; its running sessions go on, no new one starts. Paired clients only.',
  }),
  knownAgents: command({
    input: z.object({}).strict(),
    output: z.array(KnownAgentOffer).max(32),
    http: { method: 'GET', path: '/api/agents/known' },
    summary:
      'The agents Gatehouse knows how to start, each with the program found on the PATH (outside its own install) or what to run instead.',
  }),
  setupSnippets: command({
    input: z.object({}).strict(),
    output: z.object({
      /** How to run the gatehouse command of this install (absolute paths). */
      command: z.array(z.string().max(AGENT_LIMITS.path)).max(4),
      editor: z.string().max(10_000),
      terminal: z.string().max(10_000),
    }),
    http: { method: 'GET', path: '/api/setup-snippets' },
    summary:
      "An editor's agent_servers entry and the terminal hook lines, naming this install's gatehouse command.",
  }),
} as const;
