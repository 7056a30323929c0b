// The command table: every command's input, output and HTTP route. The HTTP routes, the ipcMain
// handlers, the preload bridge and the renderer's clients are derived from it.
import { z } from 'zod';
import {
  AdditionalDirectories,
  AgentInfo,
  AuthMethod,
  Id,
  PendingApproval,
  PendingSummary,
  PermissionMode,
  PermissionPolicy,
  SessionInfo,
  StopReason,
  Surface,
  Uuid,
} from './domain';
import { HookedCli } from './hooked-clis';
import { RegistryListing, REGISTRY_LIMITS } from './registry-format';
import { ManagedOverride, ManagedPolicyView } from './managed-settings';
import { CONFIG_LIMITS } from './session-config';
import { Settings } from './settings';
import { Transcript } from './transcript';
import { command, Empty, Ok, RequestRef } from './contract-command';
import { agentCommands } from './contract-commands-agents';
import { sessionLifeCommands } from './contract-commands-sessions';
import { historyCommands } from './contract-commands-history';
import { ruleCommands } from './contract-commands-rules';
import { keyCommands } from './contract-commands-keys';
import { questionCommands } from './contract-commands-questions';
import { RejectMessage, VOTE_STATUS, VoteInput, VoteOutcome } from './contract-votes';
import { HEALTH_ROUTE } from './health-route';

/** Rows one export carries; a larger history is exported filter by filter (or by date range). */
export const EXPORT_MAX_ROWS = 50_000;

export const ClientId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'client id: 1–128 of A-Z a-z 0-9 . _ : -');

/**
 * What the core still prepares after it answers: `decisions` (rules, grants and the audit; until
 * they are ready no other request is answered, none is decided), then the telemetry export.
 */
export const StartingPart = z.enum(['decisions', 'telemetry']);
export type StartingPart = z.infer<typeof StartingPart>;

export const Health = z.object({
  ok: z.literal(true),
  version: z.string(),
  policy: PermissionPolicy,
  supportedPolicies: z.array(PermissionPolicy),
  pending: z.number().int(),
  capabilities: z.array(z.string()),
  /** `starting` while any part below is. */
  status: z.enum(['starting', 'ready']).default('ready'),
  starting: z.array(StartingPart).max(8).default([]),
});

const SettingsSaved = z.object({
  settings: Settings,
  path: z.string(),
  restartNeeded: z.array(z.string()),
  /** The administrator's managed policy, shown locked; null when there is none. */
  managed: ManagedPolicyView.nullable(),
  /** User settings the managed policy forbids, and the administrator's values in force instead. */
  overridden: z.array(ManagedOverride).max(1000).default([]),
  /**
   * Why settings.json, as edited on disk, is not in force (the last good settings are), until the
   * file reads as valid settings again; null when it does.
   */
  fileProblem: z
    .object({
      file: z.string().max(4096),
      problems: z.array(z.string().max(4000)).max(100),
      since: z.number(),
    })
    .nullable()
    .default(null),
});

/** A settings change kept until a person confirms it locally (code in headless, dialog in desktop). */
export const SettingsConfirmation = z.object({
  id: Uuid,
  expiresAt: z.number(),
  agents: z.array(z.string()),
  how: z.enum(['code', 'dialog']),
});
export type SettingsConfirmation = z.infer<typeof SettingsConfirmation>;

/** 32 random bytes, base64url. */
const PairingSecret = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'pairing secret: 43 base64url characters');
export const ClientInfo = z.object({
  clientId: ClientId,
  label: z.string(),
  surface: Surface,
  paired: z.boolean(),
  registeredAt: z.number(),
  lastSeenAt: z.number(),
});
export type ClientInfo = z.infer<typeof ClientInfo>;
const SessionRef = z.object({ sessionId: Id }).strict();

export const commands = {
  health: command({
    input: Empty,
    output: Health,
    http: HEALTH_ROUTE,
    summary: 'Liveness, the active mediator policy and the supported ones.',
  }),
  registerClient: command({
    // The surfaces of this process and of editors are Gatehouse's to give, never a caller's claim.
    input: z
      .object({ label: z.string().max(100).optional(), surface: z.enum(['browser', 'api']) })
      .strict(),
    output: z.object({ clientId: ClientId, clientToken: z.string() }),
    http: { method: 'POST', path: '/api/clients' },
    summary: 'Register a voter; the token proves its identity on later votes.',
  }),
  pairClient: command({
    input: z
      .object({
        pairingSecret: PairingSecret,
        label: z.string().min(1).max(100),
        surface: z.enum(['browser', 'api']).default('browser'),
      })
      .strict(),
    output: z.object({ clientId: ClientId, clientToken: z.string() }),
    http: { method: 'POST', path: '/api/clients/pair' },
    summary:
      'Exchange a one-time pairing secret for a paired client: its votes count as a person’s.',
  }),
  createPairingCode: command({
    input: Empty,
    output: z.object({ secret: PairingSecret, path: z.string(), expiresAt: z.number() }),
    http: { method: 'POST', path: '/api/clients/pairing-code' },
    summary: 'A one-time pairing secret (10 minutes) for another device; paired clients only.',
  }),
  listClients: command({
    input: Empty,
    output: z.array(ClientInfo),
    http: { method: 'GET', path: '/api/clients' },
    summary: 'Registered and paired clients, and when each was last seen.',
  }),
  serverAddress: command({
    input: Empty,
    output: z.object({
      /** False where no HTTP server runs (the desktop app). */
      served: z.boolean(),
      host: z.string().max(300).nullable(),
      port: z.number().int().min(0).max(65_535).nullable(),
      /** The addresses another device opens; empty when only this machine reaches the server. */
      networkUrls: z.array(z.string().max(400)).max(64),
    }),
    http: { method: 'GET', path: '/api/server' },
    summary:
      'Where the HTTP server listens and the addresses another device opens (none on loopback).',
  }),
  revokeClient: command({
    input: z.object({ clientId: ClientId }).strict(),
    output: Ok,
    http: { method: 'DELETE', path: '/api/clients/:clientId' },
    summary: 'Forget a client; a paired one stays revoked across restarts. Paired clients only.',
  }),
  listAgents: command({
    input: Empty,
    output: z.array(AgentInfo),
    http: { method: 'GET', path: '/api/agents' },
    summary: 'Agents configured in settings.',
  }),
  listRegistryAgents: command({
    input: Empty,
    output: z.object({
      agents: z.array(RegistryListing).max(REGISTRY_LIMITS.agents),
      /** Why the snapshot lists nothing: none imported, or it does not validate. */
      problem: z.string().max(10_000).nullable(),
    }),
    http: { method: 'GET', path: '/api/registry/agents' },
    summary:
      'The agents of the ACP Registry snapshot ($GATEHOUSE_HOME/registry.json), to add to settings as {"registry": id}.',
  }),
  agentsOnPath: command({
    input: Empty,
    output: z.array(
      z.object({
        id: Id,
        name: z.string(),
        command: z.string(),
        args: z.array(z.string()),
        note: z.string().nullable(),
      }),
    ),
    http: { method: 'GET', path: '/api/agents/found' },
    summary: 'Known ACP agents installed on the PATH Gatehouse runs with and not yet in settings.',
  }),
  setAgentBypass: command({
    input: z.object({ agentId: Id, enabled: z.boolean() }).strict(),
    output: AgentInfo,
    http: { method: 'POST', path: '/api/agents/:agentId/bypass' },
    summary: 'Trust an agent (Bypass): allow all but explicit deny rules; saved in settings.',
  }),
  allowSandboxTarget: command({
    input: z
      .object({
        agentId: Id,
        kind: z.enum(['write', 'connect', 'socket']),
        /** The refused path (its folder is allowed), host:port, or a Unix socket's path. */
        target: z.string().min(1).max(4096),
      })
      .strict(),
    output: z.object({
      agentId: Id,
      /** What joins the agent's allowWrite, network allow list or allowUnixSockets. */
      entry: z.string(),
      /** Set when nothing was applied yet: the change waits for a person where Gatehouse runs. */
      confirmation: SettingsConfirmation.optional(),
    }),
    http: {
      method: 'POST',
      path: '/api/agents/:agentId/sandbox/allow',
      status: (output) => (output.confirmation ? 202 : 200),
    },
    summary:
      "Let an agent's sandbox allow what it refused: the folder of a write, a host:port, or a Unix socket. Never Gatehouse's folder, /, HOME or its key folders, a local address, nor a socket of Gatehouse's. Over HTTP it waits for a local confirmation.",
  }),
  listHookedClis: command({
    input: Empty,
    output: z.array(HookedCli),
    http: { method: 'GET', path: '/api/hooks' },
    summary:
      "Which terminal CLIs (Claude Code, Gemini CLI) run Gatehouse's hook, from the user's settings files (read only).",
  }),
  getSettings: command({
    input: Empty,
    output: SettingsSaved,
    http: { method: 'GET', path: '/api/settings' },
    summary:
      "The settings in force, where they live, which saved changes wait for a restart, and the administrator's managed policy (null when there is none).",
  }),
  updateSettings: command({
    input: z.object({ settings: Settings }).strict(),
    output: SettingsSaved.extend({
      /** Set when nothing was applied: the change waits for a person where Gatehouse runs. */
      confirmation: SettingsConfirmation.optional(),
    }),
    http: {
      method: 'PUT',
      path: '/api/settings',
      status: (output) => (output.confirmation ? 202 : 200),
    },
    summary:
      "Replace settings.json (validated whole); most keys apply at once, policy and server at restart. Over HTTP, a change of an agent's command, args, cwd or env (or a new agent), or one that loosens its sandbox, waits for a local confirmation.",
  }),
  confirmSettingsChange: command({
    input: z
      .object({
        id: Uuid,
        code: z.string().min(1).max(20),
      })
      .strict(),
    output: SettingsSaved,
    http: { method: 'POST', path: '/api/settings/confirm' },
    summary:
      'Apply a waiting settings change with the code shown where Gatehouse runs (five wrong codes discard it).',
  }),
  listSessions: command({
    input: Empty,
    output: z.array(SessionInfo),
    http: { method: 'GET', path: '/api/sessions' },
    summary: 'Open sessions, and those that ended today (with why).',
  }),
  getTranscript: command({
    input: z
      .object({ sessionId: Id, since: z.coerce.number().int().nonnegative().optional() })
      .strict(),
    output: Transcript,
    http: { method: 'GET', path: '/api/sessions/:sessionId/transcript' },
    summary:
      "A session's transcript as the core rebuilt it (messages, thoughts, plan, tool calls, decisions); with `since`, only what changed after that revision.",
  }),
  recentFolders: command({
    input: Empty,
    output: z.array(z.string().max(4096)).max(10),
    http: { method: 'GET', path: '/api/folders/recent' },
    summary: 'The folders sessions were last started in, most recent first (at most 10).',
  }),
  checkFolder: command({
    input: z.object({ path: z.string().min(1).max(4096) }).strict(),
    output: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), path: z.string() }),
      z.object({ ok: z.literal(false), problem: z.string() }),
    ]),
    http: { method: 'POST', path: '/api/folders/check' },
    summary:
      "Whether a session could start in a folder (absolute, there, a folder, readable, not Gatehouse's own), checked as createSession checks it.",
  }),
  createSession: command({
    input: z
      .object({
        agentId: Id,
        cwd: z.string().min(1).max(4096),
        additionalDirectories: AdditionalDirectories.optional(),
      })
      .strict(),
    output: z.object({ sessionId: Id }),
    http: { method: 'POST', path: '/api/sessions' },
    summary:
      'Spawn (or reuse) the agent and open an ACP session in a folder; additionalDirectories are more folders it may work in, each checked as the folder is, refused unless the agent takes them.',
  }),
  prompt: command({
    input: z.object({ sessionId: Id, text: z.string().min(1).max(200_000) }).strict(),
    output: z.object({ stopReason: StopReason }),
    http: { method: 'POST', path: '/api/sessions/:sessionId/prompt' },
    summary: 'Send a prompt; answers when the turn ends.',
  }),
  cancelTurn: command({
    input: SessionRef,
    output: Ok,
    http: { method: 'POST', path: '/api/sessions/:sessionId/cancel' },
    summary: 'Cancel the running turn; pending requests of the session are answered cancelled.',
  }),
  closeSession: command({
    input: SessionRef,
    output: Ok,
    http: { method: 'DELETE', path: '/api/sessions/:sessionId' },
    summary: 'Close a session; its pending requests end and are audited.',
  }),
  setSessionMode: command({
    input: z.object({ sessionId: Id, mode: PermissionMode }).strict(),
    output: SessionInfo,
    http: { method: 'POST', path: '/api/sessions/:sessionId/mode' },
    summary: 'Switch the permission mode of a session.',
  }),
  setSessionOption: command({
    input: z
      .object({
        sessionId: Id,
        configId: z.string().min(1).max(CONFIG_LIMITS.id),
        value: z.union([z.string().max(CONFIG_LIMITS.id), z.boolean()]),
      })
      .strict(),
    output: SessionInfo,
    http: { method: 'POST', path: '/api/sessions/:sessionId/options' },
    summary:
      "Set one of the agent's session options (ACP session/set_config_option); a value that reads as the agent no longer asking is refused.",
  }),
  authenticateSession: command({
    input: z.object({ sessionId: Id, methodId: AuthMethod.shape.id }).strict(),
    output: SessionInfo,
    http: { method: 'POST', path: '/api/sessions/:sessionId/authenticate' },
    summary:
      'Sign the agent in with a method it offered (ACP authenticate), then open its session.',
  }),
  listApprovals: command({
    input: Empty,
    output: z.object({
      /** The oldest pending requests, summarised (at most LIST_MAX_ITEMS of the core's limits). */
      items: z.array(PendingSummary),
      /** Every pending request, listed or not. */
      total: z.number().int().nonnegative(),
    }),
    http: { method: 'GET', path: '/api/approvals' },
    summary: 'Pending permission requests, oldest first, summarised; the total count.',
  }),
  approvalDetail: command({
    input: RequestRef,
    output: PendingApproval,
    http: { method: 'GET', path: '/api/approvals/:requestId' },
    summary:
      'One pending request as the dialog shows it (large parts cut, with their size and hash).',
  }),
  vote: command({
    input: VoteInput,
    output: VoteOutcome,
    http: {
      method: 'POST',
      path: '/api/approvals/:requestId/vote',
      status: (outcome) => VOTE_STATUS[outcome.kind],
    },
    summary: 'Vote for one of the options the agent offered, or cancel the request.',
  }),
  createApprovalLink: command({
    input: RequestRef,
    output: z.object({ token: z.string(), path: z.string(), expiresAt: z.number() }),
    http: { method: 'POST', path: '/api/approvals/:requestId/link' },
    summary: 'A single-use link bound to this request, for approving from another device.',
  }),
  linkedApproval: command({
    input: Empty,
    output: PendingApproval,
    http: { method: 'GET', path: '/api/link', auth: 'link' },
    summary: 'The request an approval link is bound to.',
  }),
  voteByLink: command({
    input: z
      .object({ optionId: z.string().min(1).max(200), message: RejectMessage.optional() })
      .strict(),
    output: VoteOutcome,
    http: {
      method: 'POST',
      path: '/api/link/vote',
      auth: 'link',
      status: (outcome) => VOTE_STATUS[outcome.kind],
    },
    summary: 'Vote once with an approval link; the link is spent.',
  }),
  extendApproval: command({
    input: z.object({ requestId: Uuid, seconds: z.number().int().min(1).max(3600) }).strict(),
    output: z.object({ expiresAt: z.number() }),
    http: { method: 'POST', path: '/api/approvals/:requestId/extend' },
    summary: 'Push back the fail-closed timeout of a pending request.',
  }),
  markDisplayed: command({
    input: RequestRef,
    output: Ok,
    http: { method: 'POST', path: '/api/approvals/:requestId/displayed' },
    summary: 'Record that a person has seen the request (audited with a timeout).',
  }),
  ...historyCommands,
  ...ruleCommands,
  ...agentCommands,
  ...sessionLifeCommands,
  ...keyCommands,
  ...questionCommands,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
export type CommandOutput<N extends CommandName> = z.output<Commands[N]['output']>;
export const commandNames = Object.keys(commands) as CommandName[];
