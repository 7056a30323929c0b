// The one settings file ($GATEHOUSE_HOME/settings.json). Its JSON schema is generated from this.
import { z } from 'zod';
import { PermissionMode, PermissionPolicy } from './domain';
import { ACP_REGISTRY_URL, RegistryAgentId } from './registry-format';
import { DEFAULT_PREVIEW_TIMEOUT_SECONDS, MAX_PREVIEW_TIMEOUT_SECONDS } from './preview';
import { RuleSchema } from './rules';
import { ProtectedPathEntry, SandboxSettings } from './sandbox-settings';

/** How long an unanswered permission request waits before it is refused (fail closed). */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;
/** A day: well under setTimeout's 2^31-1 ms ceiling, past which Node fires the timer at once. */
export const MAX_APPROVAL_TIMEOUT_SECONDS = 86_400;

export const AgentIdKey = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'agent id: letters, digits, . _ -');

export const AgentConfig = z
  .object({
    /** Display name; defaults to the id. */
    name: z.string().min(1).max(100).optional(),
    /** The program to run; or `registry`, and the ACP Registry snapshot says which. */
    command: z.string().min(1).optional(),
    /** An agent of the ACP Registry snapshot ($GATEHOUSE_HOME/registry.json), by its id. */
    registry: RegistryAgentId.optional(),
    /** With `registry`: after the registry's own arguments. */
    args: z.array(z.string()).default([]),
    /**
     * Set in the agent's environment, over the allow-listed part of Gatehouse's own (PATH, HOME,
     * locale, proxies, the model API variables of known agents). GATEHOUSE_* never reaches an agent.
     */
    env: z
      .record(z.string(), z.string())
      .superRefine((env, ctx) => {
        for (const name of Object.keys(env)) {
          if (/^GATEHOUSE_/i.test(name)) {
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: `${name}: GATEHOUSE_* variables are Gatehouse's own and never reach an agent`,
            });
          }
        }
      })
      .default({}),
    /** Working directory of the agent process; defaults to the session folder. */
    cwd: z.string().min(1).optional(),
    /** Permission mode for new sessions of this agent. */
    mode: PermissionMode.default('default'),
    /** The Bypass switch: allow this agent everything a deny or ask rule does not stop. */
    bypassPermissions: z.boolean().default(false),
    /** Mediator policy for this agent's requests; defaults to policy.permissionStrategy. */
    policy: PermissionPolicy.optional(),
    /**
     * What Gatehouse serves the agent besides writes. `read`: advertise fs/read_text_file; each read
     * is judged by the rules like a request of kind read (inside the session folder, or allowed by a
     * rule; secret files only by a rule naming them), audited, and never asked of a person.
     */
    fs: z
      .object({ read: z.boolean().default(false) })
      .strict()
      .default({ read: false }),
    /**
     * Run this agent although it has a side door Gatehouse cannot close (opencode takes approvals
     * from any local program). Its sessions are shown as not guarded.
     */
    allowUnguarded: z.boolean().default(false),
    /**
     * Run this agent's commands once in a scratch view before asking (shown in the dialog); off
     * also when `preview.enabled` is off in the settings.
     */
    preview: z.boolean().default(true),
    /** The OS sandbox the agent runs in: what it does without asking stays inside the project. */
    ...SandboxSettings.shape,
  })
  .strict()
  .refine((agent) => (agent.command === undefined) !== (agent.registry === undefined), {
    message:
      'an agent has either "command" (the program to run) or "registry" (an ACP Registry id), not both',
    path: ['command'],
  });
export type AgentConfig = z.infer<typeof AgentConfig>;
/** An agent whose program is known: its own command, or the registry's resolved. */
export type LaunchableAgent = AgentConfig & { command: string };

/**
 * Export of the audit to an OpenTelemetry collector (off unless `otlp` is set). The local audit stays
 * the record: the export reads it and resumes where it stopped, so a collector that is down or slow
 * delays the export, never a decision.
 */
export const TelemetrySettings = z
  .object({
    otlp: z
      .object({
        /** The collector's base URL: `/v1/logs` and `/v1/metrics` are appended over HTTP. */
        endpoint: z
          .string()
          .max(2048)
          .url()
          .refine((url) => /^https?:\/\//i.test(url), 'endpoint: an http:// or https:// URL'),
        protocol: z.enum(['http/protobuf', 'http/json', 'grpc']).default('http/protobuf'),
        /** Sent with every export (an API key, a tenant): kept in settings.json, never given to agents. */
        headers: z
          .record(z.string().min(1).max(256), z.string().max(8192))
          .refine((h) => Object.keys(h).length <= 64, 'headers: at most 64')
          .default({}),
        /** Also send what a person wrote or an agent proposed to write: diff contents. */
        logPrompts: z.boolean().default(false),
        /** How long new audit entries may wait to be sent together. */
        exportDelayMs: z.number().int().min(10).max(60_000).default(1000),
        /** After a failed export, the wait before the same batch is sent again. */
        retryDelayMs: z.number().int().min(50).max(600_000).default(5000),
        /** How often metrics are sent. */
        metricsIntervalMs: z.number().int().min(100).max(3_600_000).default(60_000),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TelemetrySettings = z.infer<typeof TelemetrySettings>;

export const Settings = z
  .object({
    $schema: z.string().optional(),
    agents: z.record(AgentIdKey, AgentConfig).default({}),
    /** Where `gatehouse agents fetch-registry` fetches the ACP Registry from (https only). */
    agentRegistry: z
      .object({
        url: z
          .string()
          .max(2048)
          .url()
          .refine((url) => /^https:\/\//i.test(url), 'url: an https:// URL')
          .default(ACP_REGISTRY_URL),
      })
      .strict()
      .optional(),
    policy: z
      .object({
        /** Checked at start against the supported policies (`PermissionPolicy` in the domain). */
        permissionStrategy: z.string().optional(),
        consensusQuorum: z.number().optional(),
      })
      .strict()
      .default({}),
    /** Allow / ask / deny before a person is asked; deny > ask > allow, then the most specific. */
    rules: z.array(RuleSchema).default([]),
    /**
     * Files that run later, protected in every writable root of every sandbox besides the built-in
     * list (git hooks and config, editor tasks, CLI settings, .envrc, .npmrc, ...), which cannot be
     * shortened: an agent cannot create, change, rename or delete them on its own.
     */
    protectedPaths: z.array(ProtectedPathEntry).max(64).default([]),
    /**
     * Before a person is asked about a command whose exact text is known, it is run once in a
     * throwaway copy-on-write view of the session (no network, bounded time, memory, disk and
     * processes) and the dialog shows what it changed. Nothing it does reaches the real files.
     */
    preview: z
      .object({
        enabled: z.boolean().default(true),
        timeoutSeconds: z
          .number()
          .int()
          .min(1)
          .max(MAX_PREVIEW_TIMEOUT_SECONDS)
          .default(DEFAULT_PREVIEW_TIMEOUT_SECONDS),
      })
      .strict()
      .default({ enabled: true, timeoutSeconds: DEFAULT_PREVIEW_TIMEOUT_SECONDS }),
    approvals: z
      .object({
        /** Fail-closed timeout: an unanswered request is denied after this many seconds. */
        timeoutSeconds: z
          .number()
          .int()
          .min(1)
          .max(MAX_APPROVAL_TIMEOUT_SECONDS)
          .default(DEFAULT_APPROVAL_TIMEOUT_SECONDS),
        /**
         * After a cancel, how long the agent has to end its turn. Past it the turn is reported
         * cancelled, the agent is stopped and the session ends (agent_unresponsive).
         */
        cancelGraceSeconds: z.number().int().min(1).max(300).default(10),
      })
      .strict()
      .default({ timeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS, cancelGraceSeconds: 10 }),
    history: z
      .object({
        /**
         * When a decision counts as kept before the agent hears it. `normal`: written to the
         * operating system, so a Gatehouse that crashes or is killed loses none. `full`: on the disk
         * (an fsync per group commit), so a power cut or a kernel crash loses none either. Read at
         * start.
         */
        durability: z.enum(['normal', 'full']).default('normal'),
      })
      .strict()
      .default({ durability: 'normal' }),
    /** How much history to keep; older decisions are pruned, the audit chain stays verifiable. */
    retention: z
      .object({
        days: z.number().int().min(1).optional(),
        rows: z.number().int().min(100).optional(),
      })
      .strict()
      .default({}),
    server: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535).default(7878),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 7878 }),
    /** `gatehouse acp`, the proxy an editor launches its agent through. */
    proxy: z
      .object({
        /** Show a request a person must decide in the editor too; its answer is a vote. */
        askEditor: z.boolean().default(true),
        /** Start a headless core when none runs; off, every permission request is refused. */
        autoStart: z.boolean().default(true),
      })
      .strict()
      .default({ askEditor: true, autoStart: true }),
    /** `gatehouse hook`, the approver terminal CLIs (Claude Code, Gemini CLI) call before a tool runs. */
    hooks: z
      .object({
        /**
         * What Claude Code's hook answers when no core runs: "ask" falls back to its own prompt,
         * "deny" refuses. Gemini CLI's hook always refuses then: its "ask" lets a tool run under yolo.
         */
        whenUnavailable: z.enum(['ask', 'deny']).default('ask'),
      })
      .strict()
      .default({ whenUnavailable: 'ask' }),
    desktop: z
      .object({
        /** Raise the approval dialog on a new request (otherwise notification and tray carry it). */
        raiseOnRequest: z.boolean().default(false),
        /** Start Gatehouse (in the tray, no window) when the person logs in. */
        startAtLogin: z.boolean().default(false),
      })
      .strict()
      .default({ raiseOnRequest: false, startAtLogin: false }),
    telemetry: TelemetrySettings.default({}),
  })
  .strict();
export type Settings = z.infer<typeof Settings>;
export type SettingsInput = z.input<typeof Settings>;
