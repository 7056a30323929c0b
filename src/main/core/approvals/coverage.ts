// Whether what an agent does is what was allowed: a write Gatehouse is asked to perform, a command
// it is asked to run. Every way an action reaches Gatehouse asks here, so one answer holds for all.
import { isAbsolute, resolve } from 'node:path';
import type { Decider, PendingApproval, ToolKind } from '../../../shared/domain';
import { joinAsGiven, realPathLoose } from '../fs/containment';
import { ApprovedActions, sha256Of, type PathsLed } from './approved-actions';
import type { PreDecision, SessionContext } from './session-context';

/** The rule layer the pipeline uses (rules, grants, modes), asked about one action. */
export type Judge = (approval: PendingApproval, session: SessionContext) => PreDecision;

/** The real path a write was judged at: it must land there (agents/fs-access.ts writeInside). */
export type WriteVerdict = { sha256: string } & (
  | { covered: true; requestId: string; real: string | null }
  | { covered: true; decider: Decider; reason: string; real: string | null }
  | { covered: false; reason: 'not approved'; why?: string }
  | {
      covered: false;
      reason: 'the path leads elsewhere than when it was approved';
      why?: string;
      requestId: string;
      approvedReal: string | null;
      real: string | null;
    }
  | {
      covered: false;
      reason: 'content differs from the approved diff';
      why?: string;
      requestId: string;
      approvedSha256: string;
    }
);

export type CommandVerdict =
  | { covered: true; requestId: string }
  | { covered: true; decider: Decider; reason: string }
  | { covered: false; reason: 'not approved' };

export interface Coverage {
  /**
   * Called with each request a decision allowed, before the agent hears the answer, with where its
   * paths led when it was shown.
   */
  allowed(approval: PendingApproval, led?: PathsLed): void;
  /** Is writing `content` to `path` covered? Using an approval spends it. */
  write(session: SessionContext, path: string, content: string): WriteVerdict;
  /** The same, for a write known by its content's sha256 (one performed elsewhere, by an editor). */
  writeDigest(session: SessionContext, path: string, sha256: string): WriteVerdict;
  /** Is running `command` exactly as given covered? Using an approval spends it. */
  command(session: SessionContext, command: string): CommandVerdict;
  endSession(sessionId: string): void;
}

/**
 * A write is covered by an allowed request of the same session whose diff for that path has exactly
 * this content (or, without diffs, an edit naming the path), used once; otherwise by a rule, grant
 * or mode that would allow an edit of that path. A command is covered by an allowed request that
 * showed exactly that command, used once, or by what would allow running it.
 */
export function createCoverage(judge: Judge, now: () => number = Date.now): Coverage {
  const approved = new ApprovedActions();
  const judged = (
    session: SessionContext,
    kind: ToolKind,
    path: string | null,
    command: string | null,
  ): { decider: Decider; reason: string } | { why?: string } => {
    const decision = judge(syntheticRequest(session, kind, path, command, now()), session);
    if (decision.verdict === 'allow' && decision.decider)
      return { decider: decision.decider, reason: decision.reason ?? 'allowed' };
    // A protected file: the refusal says which, and what runs it.
    return decision.protectedWrite && decision.reason ? { why: decision.reason } : {};
  };
  const writeDigest = (session: SessionContext, path: string, sha256: string): WriteVerdict => {
    const target = isAbsolute(path) ? path : resolve(session.cwd, path);
    // As the rules take it: `..` after a link is the kernel's, not the text's.
    const real = realPathLoose(joinAsGiven(session.cwd, path));
    const match = approved.takeWrite(session.sessionId, target, sha256, real);
    if (match.found === 'approved')
      return { sha256, covered: true, requestId: match.requestId, real };
    const byRule = judged(session, 'edit', target, null);
    if ('decider' in byRule) return { sha256, covered: true, ...byRule, real };
    if (match.found === 'moved') {
      return {
        sha256,
        covered: false,
        reason: 'the path leads elsewhere than when it was approved',
        requestId: match.requestId,
        approvedReal: match.approvedReal,
        real,
        ...byRule,
      };
    }
    if (match.found === 'differs') {
      return {
        sha256,
        covered: false,
        reason: 'content differs from the approved diff',
        requestId: match.requestId,
        approvedSha256: match.sha256,
        ...byRule,
      };
    }
    return { sha256, covered: false, reason: 'not approved', ...byRule };
  };
  return {
    allowed: (approval, led) => approved.record(approval, led),
    write: (session, path, content) => writeDigest(session, path, sha256Of(content)),
    writeDigest,
    command(session, command) {
      const requestId = approved.takeCommand(session.sessionId, command);
      if (requestId) return { covered: true, requestId };
      const byRule = judged(session, 'execute', null, command);
      return 'decider' in byRule
        ? { covered: true, ...byRule }
        : { covered: false, reason: 'not approved' };
    },
    endSession: (sessionId) => approved.endSession(sessionId),
  };
}

/** The request the agent would have sent for this one action, as the rule layer reads requests. */
function syntheticRequest(
  session: SessionContext,
  kind: ToolKind,
  path: string | null,
  command: string | null,
  at: number,
): PendingApproval {
  return {
    requestId: '',
    sessionId: session.sessionId,
    agentId: session.agentId,
    agentName: session.agentName,
    cwd: session.cwd,
    toolCall: {
      toolCallId: '',
      kind,
      title: path ?? command ?? '',
      locations: path === null ? [] : [{ path }],
      content: [],
    },
    options: [],
    policy: session.policy,
    issuedAt: at,
    expiresAt: at,
    warnings: [],
    diffs: [],
    command:
      command === null ? null : { command, args: null, cwd: session.cwd, source: 'rawInput' },
    tally: null,
  };
}
