// What each terminal CLI hands its hook on stdin and reads back on stdout (docs: Claude Code's
// PreToolUse hook, Gemini CLI's BeforeTool hook). Everything read is validated and bounded.
import { z } from 'zod';
import type { HookAgent } from '../../shared/control-hook';
import { HOOK_CLIS, type HookCli } from '../../shared/hooked-clis';

export { CLI_NAME, HOOK_CLIS, type HookCli } from '../../shared/hooked-clis';

export function isHookCli(name: string | undefined): name is HookCli {
  return (HOOK_CLIS as readonly string[]).includes(name ?? '');
}

export const AGENT_OF: Record<HookCli, HookAgent> = {
  'claude-code': 'claude-code',
  gemini: 'gemini-cli',
};

/** The fields both CLIs send that Gatehouse reads; the rest (transcript path, timestamp…) is ignored. */
export const HookEvent = z.looseObject({
  session_id: z.string().min(1).max(256),
  cwd: z.string().min(1).max(4096),
  tool_name: z.string().min(1).max(200),
  tool_input: z.record(z.string().max(256), z.unknown()),
});
export type HookEvent = z.infer<typeof HookEvent>;

/** Claude Code falls back to its own prompt on "ask"; Gemini CLI is never told "ask" (yolo runs it). */
export type HookAnswer = 'allow' | 'deny' | 'ask';

export function answerJson(cli: HookCli, decision: HookAnswer, reason: string): string {
  if (cli === 'claude-code') {
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision,
        permissionDecisionReason: reason,
      },
    });
  }
  return JSON.stringify({ decision: decision === 'allow' ? 'allow' : 'deny', reason });
}
