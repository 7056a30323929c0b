// The terminal CLIs Gatehouse hooks into (`gatehouse hook …`), and what the settings view is told of
// each: whether the user's settings file of that CLI holds Gatehouse's hook, and, for every file
// `gatehouse hook install` wrote it into (the user's or a project's), whether it is still there as
// installed.
import { z } from 'zod';

export const HOOK_CLIS = ['claude-code', 'gemini'] as const;
export const HookCli = z.enum(HOOK_CLIS);
export type HookCli = z.infer<typeof HookCli>;

export const CLI_NAME: Record<HookCli, string> = {
  'claude-code': 'Claude Code',
  gemini: 'Gemini CLI',
};

/** The user's settings file of a CLI, or a project's (`gatehouse hook install --project`). */
export const HookScope = z.enum(['user', 'project']);
export type HookScope = z.infer<typeof HookScope>;

/**
 * A watched hook, judged against what `gatehouse hook install` left: `intact`; `lost` (the file
 * gone or unreadable, the hook removed, its command changed, hooks turned off: the CLI is no longer
 * gated); `weakened` (the hook runs, but a mode that does not ask or another hook was added).
 */
export const HookStatus = z.enum(['intact', 'lost', 'weakened']);
export type HookStatus = z.infer<typeof HookStatus>;

/** What happened to a watched hook, as audited (`hook_changed`) and sent to every surface. */
export const HookChange = z.enum(['installed', 'lost', 'weakened', 'restored', 'uninstalled']);
export type HookChange = z.infer<typeof HookChange>;

/** At most this many differences are named per file; each is one bounded sentence. */
export const HOOK_CHANGES_MAX = 12;
export const HookWatch = z.object({
  status: HookStatus,
  /** When Gatehouse noticed this status (epoch ms); kept across restarts by the audit. */
  since: z.number(),
  /** What differs from the install, in sentences (empty while intact). */
  changes: z.array(z.string().max(600)).max(HOOK_CHANGES_MAX),
});
export type HookWatch = z.infer<typeof HookWatch>;

export const HookedCli = z.object({
  cli: HookCli,
  scope: HookScope,
  /** The settings file: the user's (~/.claude/settings.json, ~/.gemini/settings.json) or a project's. */
  file: z.string(),
  /** `unreadable`: the file is there but not a bounded JSON object Gatehouse can read. */
  state: z.enum(['hooked', 'not-hooked', 'unreadable']),
  /** Why it is unreadable or not hooked (a missing file, hooks turned off), in a sentence. */
  reason: z.string().optional(),
  /** Gatehouse's hook commands in the file, verbatim (bounded), whichever installation wrote them. */
  commands: z.array(z.string()),
  /** One of them runs this installation exactly, for every tool call. */
  thisInstallation: z.boolean(),
  /** What to run in a terminal to install (or repair) the hook for this installation. */
  installCommand: z.string(),
  /** Null: `gatehouse hook install` did not write this file (or it was uninstalled): not watched. */
  watch: HookWatch.nullable(),
});
export type HookedCli = z.infer<typeof HookedCli>;
