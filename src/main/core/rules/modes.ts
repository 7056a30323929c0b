/**
 * Permission modes, and which one applies: the session's own, else the agent's settings (its mode,
 * or the Bypass switch). Modes are how a person trusts a session more or less without writing rules.
 */
import type { PermissionMode, ToolKind } from './types';

export interface ModeSources {
  /** Mode chosen for this session (ACP session mode or the UI). Wins when set. */
  session?: PermissionMode | null | undefined;
  /** The agent's configured defaults. */
  agent?:
    { mode?: PermissionMode | undefined; bypassPermissions?: boolean | undefined } | undefined;
}

/**
 * Session mode overrides agent mode. The per-agent persistent bypass (`bypassPermissions: true`,
 * set by the "Bypass" button) is the agent's mode and wins over a `mode` configured next to it:
 * it is the later, explicit choice a person made.
 */
export function resolveMode(sources: ModeSources): PermissionMode {
  if (sources.session) return sources.session;
  if (sources.agent?.bypassPermissions === true) return 'bypassPermissions';
  return sources.agent?.mode ?? 'default';
}

/**
 * Kinds plan mode refuses: anything that writes or runs. 'other' and an unknown kind are refused
 * too because we cannot tell what they do. 'switch_mode' is NOT refused: it is how an agent asks
 * to leave plan mode, which a person must be able to approve.
 */
export const PLAN_DENIED_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>([
  'edit',
  'delete',
  'move',
  'execute',
  'other',
]);

export function planDenies(kind: ToolKind | undefined): boolean {
  return kind === undefined || PLAN_DENIED_KINDS.has(kind);
}

/** Kinds acceptEdits auto-allows when every path resolves inside the session folder. */
export const ACCEPT_EDITS_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>([
  'edit',
  'delete',
  'move',
]);

/**
 * Folders inside the session folder that acceptEdits still asks about: the rest of a git dir
 * (refs, HEAD, objects) is git's to write, not an edit. Files other programs run later (hooks,
 * config, editor tasks, CLI settings) are asked about in every mode: rules/protected-files.ts.
 */
export const ACCEPT_EDITS_PROTECTED: readonly string[] = [
  '.git',
  '.git/**',
  '**/.git',
  '**/.git/**',
];
