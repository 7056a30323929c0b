// The managed policy: a read-only file an administrator places, whose rules and limits the user's
// settings cannot switch off. Shared so the renderer can type what the settings view shows.
import { z } from 'zod';
import { PermissionPolicy } from './domain';
import { RuleSchema } from './rules';
import { ProtectedPathEntry, SandboxMode, SandboxSettings } from './sandbox-settings';
import { TelemetrySettings } from './settings';

/** The file is a person's, not an agent's: bounded anyway, so a huge file fails plainly. */
export const MANAGED_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The sandbox an administrator forces on every agent. Each key given replaces the user's value of
 * that key for every agent; keys left out stay the user's.
 */
export const ManagedSandbox = z
  .object({
    sandbox: SandboxMode.optional(),
    allowUnsandboxed: z.boolean().optional(),
    allowWrite: SandboxSettings.shape.allowWrite.unwrap().optional(),
    denyRead: SandboxSettings.shape.denyRead.unwrap().optional(),
    /** `[]` keeps every agent's local sockets closed, whatever its own settings name. */
    allowUnixSockets: SandboxSettings.shape.allowUnixSockets.unwrap().optional(),
    network: SandboxSettings.shape.network,
  })
  .strict();
export type ManagedSandbox = z.infer<typeof ManagedSandbox>;

const OtlpSettings = TelemetrySettings.shape.otlp.unwrap();

export const ManagedSettings = z
  .object({
    $schema: z.string().max(2048).optional(),
    /** Judged before the user's rules, grants and modes; the user cannot edit or remove them. */
    rules: z.array(RuleSchema).max(1000).default([]),
    /** The mediator policies a user may choose; absent: any. */
    allowedPolicies: z.array(PermissionPolicy).min(1).optional(),
    sandbox: ManagedSandbox.optional(),
    /** Added to the protected files of every sandbox, with the user's; the user cannot remove them. */
    protectedPaths: z.array(ProtectedPathEntry).max(64).default([]),
    /** Replaces the user's `telemetry.otlp`. */
    telemetry: z.object({ otlp: OtlpSettings }).strict().optional(),
    /** false: no agent may run in a mode that does not ask (Bypass). */
    allowBypass: z.boolean().default(true),
  })
  .strict();
export type ManagedSettings = z.infer<typeof ManagedSettings>;

/**
 * What the settings view is told about the managed policy. The telemetry endpoint is only named as
 * set: its URL and headers may carry the administrator's credentials.
 */
export const ManagedPolicyView = z.object({
  path: z.string(),
  rules: z.array(RuleSchema),
  allowedPolicies: z.array(PermissionPolicy).nullable(),
  sandbox: ManagedSandbox.nullable(),
  telemetry: z.boolean(),
  allowBypass: z.boolean(),
  /** What the policy adds to the protected files; absent when it adds none. */
  protectedPaths: z.array(z.string()).optional(),
});
export type ManagedPolicyView = z.infer<typeof ManagedPolicyView>;

/**
 * A user setting the managed policy forbids, replaced by the administrator's value: Gatehouse
 * starts with the managed value in force, shows the setting as set by the administrator and audits
 * the replacement.
 */
export const ManagedOverride = z.object({
  /** The setting's path in settings.json: `agents.<id>.bypassPermissions`, `rules.<id>`… */
  setting: z.string().max(400),
  /** What the user's settings say. */
  user: z.union([z.string().max(200), z.boolean()]),
  /** What is in force instead. */
  managed: z.union([z.string().max(200), z.boolean()]),
});
export type ManagedOverride = z.infer<typeof ManagedOverride>;
