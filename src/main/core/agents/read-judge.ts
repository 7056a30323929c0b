// Whether an agent may read a file through Gatehouse (fs/read_text_file, when reads are enabled).
import type { Rule } from '../../../shared/rules';
import type { SessionContext } from '../approvals/pipeline';
import { isInside } from '../fs/containment';
import { evaluate, standingName, type DecidedBy, type Grant } from '../rules';
import { secretKind } from '../safety/secrets';

export type ReadVerdict = { allowed: true; decider: string } | { allowed: false; reason: string };

export type ReadJudge = (session: SessionContext, realPath: string) => ReadVerdict;

function describe(decider: DecidedBy): string {
  return decider.type === 'default' ? 'default' : standingName(decider);
}

/** A path glob made of wildcards alone (`**`, the default read rule's) names no file. */
function namesFiles(rule: Rule): boolean {
  return rule.path !== undefined && /[^*/]/.test(rule.path);
}

/**
 * Judges a read like a request of kind 'read' for that one path: a deny rule refuses; an allow rule,
 * grant or mode allows; otherwise only a path inside the session folder is allowed. Secret-looking
 * files are refused unless an allow rule with a path names them.
 *
 * No person is asked: a read is a step of a tool the agent is already running and waits for an
 * answer at once; a person asked for every file an agent opens would stop reading the questions.
 * Anything not allowed here is refused. `realPath` is resolved (no symlinks left).
 */
export function createReadJudge(options: {
  rules: () => readonly Rule[];
  grants: (agentId: string) => readonly Grant[];
  now: () => number;
  homeDir: string;
}): ReadJudge {
  return (session, realPath) => {
    const rules = options.rules();
    const evaluation = evaluate(
      {
        agentId: session.agentId,
        sessionId: session.sessionId,
        sessionCwd: session.cwd,
        projectRoot: session.cwd,
        toolKind: 'read',
        paths: [realPath],
      },
      { mode: session.mode, rules, grants: options.grants(session.agentId), now: options.now() },
    );
    if (evaluation.verdict === 'deny') return { allowed: false, reason: evaluation.reason };
    const allowedBy =
      evaluation.verdict === 'allow' ? (evaluation.deciders ?? [evaluation.decidedBy]) : [];
    const secret = secretKind(realPath, options.homeDir);
    if (secret) {
      const named =
        allowedBy.length > 0 &&
        allowedBy.every(
          (d) => d.type === 'rule' && rules.some((r) => r.id === d.ruleId && namesFiles(r)),
        );
      if (!named)
        return { allowed: false, reason: `${secret}: only an allow rule naming the path opens it` };
    }
    if (evaluation.verdict === 'allow')
      return { allowed: true, decider: allowedBy.map(describe).join(', ') };
    // An ask rule wants a person, and reads are never asked: refused.
    if (evaluation.decidedBy.type === 'rule') return { allowed: false, reason: evaluation.reason };
    if (isInside(realPath, session.cwd)) return { allowed: true, decider: 'inside session folder' };
    if (session.additionalDirectories?.some((folder) => isInside(realPath, folder)))
      return { allowed: true, decider: 'inside an additional folder of the session' };
    return { allowed: false, reason: 'outside the session folder and no rule allows it' };
  };
}
