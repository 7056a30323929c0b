import { z } from 'zod';

const PathEntry = z.string().min(1).max(4096);

/** A host the agent may reach: `host`, `host:port`, `*.suffix`, or `[ipv6]:port`. */
export const HostEntry = z
  .string()
  .min(1)
  .max(260)
  .regex(/^(\*?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/, 'host, host:port or *.domain');

/** Per-agent sandbox settings; absent keys mean the defaults (workspace-write, model hosts only). */
export const SandboxSettings = z
  .object({
    sandbox: z.enum(['workspace-write', 'read-only', 'off']).default('workspace-write'),
    /** Extra writable paths (absolute or `~/`-relative). */
    allowWrite: z.array(PathEntry).max(64).default([]),
    /** Extra unreadable paths (absolute or `~/`-relative). */
    denyRead: z.array(PathEntry).max(64).default([]),
    /** Hosts beyond the agent's model API hosts, or everything, or nothing. */
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
