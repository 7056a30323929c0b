// The terminal CLIs Gatehouse hooks into (`gatehouse hook …`), and what the settings view is told of
// each: whether the user's settings file of that CLI holds Gatehouse's hook.
import { z } from 'zod';

export const HOOK_CLIS = ['claude-code', 'gemini'] as const;
export const HookCli = z.enum(HOOK_CLIS);
export type HookCli = z.infer<typeof HookCli>;

export const CLI_NAME: Record<HookCli, string> = {
  'claude-code': 'Claude Code',
  gemini: 'Gemini CLI',
};

export const HookedCli = z.object({
  cli: HookCli,
  /** The user's settings file of the CLI (~/.claude/settings.json, ~/.gemini/settings.json). */
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
});
export type HookedCli = z.infer<typeof HookedCli>;
