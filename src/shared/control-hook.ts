// What a terminal CLI's hook (`gatehouse hook claude-code|gemini`) may ask of the core: judge one
// tool call the CLI is about to run and wait for the decision. A hook names the CLI's own session
// id, never a Gatehouse id: it cannot reach an editor's session, another connection's request, a
// vote or anything a request asked. The core decides what the tool is from its name, not the hook.
import { z } from 'zod';
import { REJECT_MESSAGE_MAX } from './domain';

export const HookAgent = z.enum(['claude-code', 'gemini-cli']);
export type HookAgent = z.infer<typeof HookAgent>;

/** The tool's arguments as the CLI gave them; the whole message is bounded by the socket (1 MiB). */
const ToolInput = z.record(z.string().max(256), z.unknown());

export const HookRequestParams = z
  .object({
    agent: HookAgent,
    /** The CLI's session id: one Gatehouse session per CLI session, ended when idle. */
    cliSessionId: z.string().min(1).max(256),
    /** Where the CLI runs (an absolute path): the session's folder. */
    cwd: z.string().min(1).max(4096),
    toolName: z.string().min(1).max(200),
    toolInput: ToolInput,
  })
  .strict();
export type HookRequestParams = z.infer<typeof HookRequestParams>;

export const HookDecision = z.enum(['allow', 'deny']);
export type HookDecision = z.infer<typeof HookDecision>;

/** A person's reject message (at most REJECT_MESSAGE_MAX) fits whole, with the words before it. */
export const HookRequestResult = z
  .object({ decision: HookDecision, reason: z.string().max(REJECT_MESSAGE_MAX + 100) })
  .strict();
export type HookRequestResult = z.infer<typeof HookRequestResult>;

/** The hook's part of the control method table. */
export const hookMethods = {
  /** Resolves once the tool call is decided and audited. */
  'hook.request': { params: HookRequestParams, result: HookRequestResult },
} as const;
