import { z } from 'zod';

const PathEntry = z.string().min(1).max(4096);

/** A host the agent may reach: `host`, `host:port`, `*.suffix`, or `[ipv6]:port`. */
export const HostEntry = z
  .string()
  .min(1)
  .max(260)
  .regex(/^(\*?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/, 'host, host:port or *.domain');

/**
 * A Unix socket the agent may use: an absolute or `~/` path that fits a socket address (108 bytes
 * with its terminating zero).
 */
export const UnixSocketEntry = z
  .string()
  .min(2)
  .max(107)
  .regex(/^(\/|~\/)[^\0]*$/, 'an absolute or ~/ path');

/**
 * A file or folder that runs later, protected in every writable root like `.git/hooks` or
 * `.vscode/`: relative to the root, `/`-separated, a trailing `/` for a whole folder, `*` only in
 * the last name (`.yarnrc*`). Matched without regard to case.
 */
export const ProtectedPathEntry = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\p{Cc}]*$/u, 'no control characters')
  .regex(
    /^(?:\.\/)?(?:(?!\.\.?\/)[^/*\\]+\/)*(?!\.\.?(?:\/|$))[^/\\]+\/?$/,
    'a path relative to the folder, like tools/hooks/ or .tool-config.json (no .., * only in the last name)',
  );

export const SandboxMode = z.enum(['workspace-write', 'read-only', 'off']);
export type SandboxMode = z.infer<typeof SandboxMode>;

/**
 * Per-agent sandbox settings (keys of the agent's entry in settings.json); absent keys mean the
 * defaults: workspace-write, the agent's model API hosts only, never unsandboxed.
 */
export const SandboxSettings = z
  .object({
    /**
     * workspace-write: the agent writes only in the session folder, the temp folder and its own
     * state folders; read-only: not even in the session folder (writes it asks for still land,
     * Gatehouse makes them); off: no sandbox, the session is shown as not sandboxed.
     */
    sandbox: SandboxMode.default('workspace-write'),
    /**
     * Where the sandbox cannot start (no bubblewrap, not Linux): run this agent without it rather
     * than refuse to start the session. The session is shown as not sandboxed.
     */
    allowUnsandboxed: z.boolean().default(false),
    /** Extra writable paths (absolute or `~/`-relative). */
    allowWrite: z.array(PathEntry).max(64).default([]),
    /** Extra unreadable paths (absolute or `~/`-relative). */
    denyRead: z.array(PathEntry).max(64).default([]),
    /**
     * Unix sockets the agent may connect to. Every other local socket stays closed; with none
     * named the sandbox refuses socket(AF_UNIX) outright (a seccomp filter), with some it hides
     * every other socket this machine listens on instead.
     */
    allowUnixSockets: z.array(UnixSocketEntry).max(16).default([]),
    /**
     * Hosts beyond the agent's model API hosts (and those of its *_BASE_URL variables), or every
     * host, or none at all.
     */
    network: z
      .union([
        z.literal('all'),
        z.literal('none'),
        z.object({ allow: z.array(HostEntry).max(64) }).strict(),
      ])
      .optional(),
  })
  .strict();
export type SandboxSettings = z.infer<typeof SandboxSettings>;
export type SandboxSettingsInput = z.input<typeof SandboxSettings>;
