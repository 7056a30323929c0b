import type { AgentReply, Decider, PermissionMode, PermissionPolicy } from '../../../shared/domain';

/** What the pipeline needs to know about the session a request came from. */
export interface SessionContext {
  readonly sessionId: string;
  readonly acpSessionId: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly cwd: string;
  /** Folders the person gave the session besides `cwd` (real paths); absent or empty: none. */
  readonly additionalDirectories?: readonly string[];
  readonly policy: PermissionPolicy;
  /** Effective permission mode: the session's own, else the agent's (bypass included). */
  readonly mode: PermissionMode;
  readonly promptId: string | null;
  readonly promptClientId: string | null;
  /** Why the session ended, once it has; decides how an interrupted request is audited. */
  readonly endReason: 'session_closed' | 'agent_exit' | 'agent_unresponsive' | 'shutdown' | null;
  /** What the agent already declared about a tool call in `tool_call` updates (ACP: absent = unchanged). */
  toolCallState(toolCallId: string): unknown;
}

/** The rule layer's answer; `ask` sends the request to the mediator. */
export interface PreDecision {
  verdict: 'allow' | 'deny' | 'ask';
  reply?: AgentReply;
  decider?: Decider;
  reason?: string;
  /** An ask that nothing but a person may lift: a write to a protected file. */
  protectedWrite?: true;
}

/** A pre-decision that answers the agent: the rules, a grant or a mode allow or deny. */
export type Verdict = PreDecision & Required<Pick<PreDecision, 'reply' | 'decider'>>;
