import type { Decider, PendingApproval, PermissionMode } from '../../../shared/domain';
import type { CommandPreview } from '../../../shared/preview';
import type { Rule } from '../../../shared/rules';
import { evaluate, scriptOfShellArgv, type DecidedBy, type RequestFacts } from '../rules';
import type { ProtectedEntry } from '../rules/protected-files';
import { JudgedPaths } from '../safety/judged-paths';
import { projectAllowInExtraFolder } from './extra-folder-scope';
import type { GrantBook } from './grant-book';
import type { PreDecision, SessionContext } from './session-context';
import { allowOnceReply, rejectReply } from './reply';

/**
 * What the rule layer looks at: kind, every path the request touches, the command as it runs — an
 * argv that only hands a script to a shell is judged as that script. The paths are its locations,
 * then its diffs', up to MAX_LOCATIONS and MAX_LOCATIONS_CHARS together; those past it are counted,
 * and a request with any is asked.
 */
export function factsOf(
  approval: Pick<
    PendingApproval,
    'agentId' | 'sessionId' | 'toolCall' | 'diffs' | 'diffsDropped' | 'command' | 'preview'
  >,
  sessionCwd: string,
): RequestFacts {
  const paths = new Set<string>();
  const judged = new JudgedPaths();
  const add = (path: string) => {
    if (!paths.has(path) && judged.admit(path)) paths.add(path);
  };
  for (const location of approval.toolCall.locations) add(location.path);
  for (const diff of approval.diffs) {
    add(diff.path);
    if (diff.oldPath) add(diff.oldPath);
  }
  // Those the normalizing left out, and the diffs the approval does not carry, were never seen.
  const dropped =
    (approval.toolCall.locationsDropped ?? 0) + (approval.diffsDropped ?? 0) + judged.dropped;
  return {
    agentId: approval.agentId,
    sessionId: approval.sessionId,
    sessionCwd,
    projectRoot: sessionCwd,
    toolKind: approval.toolCall.kind,
    paths: [...paths],
    ...(dropped > 0 ? { pathsDropped: dropped } : {}),
    ...(approval.command
      ? {
          command:
            (approval.command.args && scriptOfShellArgv(approval.command.args)) ??
            approval.command.command,
        }
      : {}),
    ...(approval.preview ? { preview: previewFacts(approval.preview) } : {}),
  };
}

/** A preview as the rules read it: complete only when it finished and listed every change. */
function previewFacts(preview: CommandPreview): NonNullable<RequestFacts['preview']> {
  const { counts } = preview;
  const total = counts.created + counts.modified + counts.deleted + counts.renamed;
  const changed: string[] = [];
  for (const change of preview.changes) {
    changed.push(change.path);
    if (change.oldPath) changed.push(change.oldPath);
  }
  return {
    complete: preview.state === 'done' && preview.changes.length >= total,
    beyondRoots: counts.outside > 0 || counts.protected > 0,
    changed,
  };
}

const NO_IDS: ReadonlySet<string> = new Set();

function deciderOf(
  decidedBy: DecidedBy,
  mode: PermissionMode,
  managed: ReadonlySet<string>,
): Decider {
  switch (decidedBy.type) {
    case 'rule':
      return managed.has(decidedBy.ruleId)
        ? { type: 'rule', ruleId: decidedBy.ruleId, source: 'managed' }
        : { type: 'rule', ruleId: decidedBy.ruleId };
    case 'grant':
      return { type: 'grant', grantId: decidedBy.grantId };
    case 'mode':
      return { type: 'mode', mode: decidedBy.mode };
    case 'default':
      return { type: 'mode', mode };
  }
}

/**
 * Rules, modes and grants, before a person is asked. The administrator's managed rules are judged
 * first and alone: what they deny or ask cannot be allowed by the user's rules, a grant or a mode,
 * and the decision names the managed rule. An allow answers with the agent's allow_once option (a
 * standing permission is Gatehouse's to keep, not the agent's), and asks a person when the agent's
 * only allow is its own "always"; a deny answers with its reject option; anything the layer cannot
 * prove safe asks.
 */
export function createRulesGate(options: {
  rules: () => readonly Rule[];
  grants: GrantBook;
  now: () => number;
  /** The managed policy's rules (none when there is no policy). */
  managedRules?: () => readonly Rule[];
  /** False under a managed policy that forbids Bypass: a session in that mode is judged as default. */
  bypassAllowed?: () => boolean;
  /** The protected files with the settings' and the managed policy's additions (default: the list). */
  protectedEntries?: () => readonly ProtectedEntry[];
}): (
  approval: PendingApproval,
  session: SessionContext,
  known?: { gitDirs?: readonly string[] },
) => PreDecision {
  // The managed rules are read once at start: their ids are gathered again only for another list
  // (an empty one, which a caller may hand out anew each time, needs none).
  let managedIds: { rules: readonly Rule[]; ids: ReadonlySet<string> } | undefined;
  const managedIdsOf = (rules: readonly Rule[]): ReadonlySet<string> => {
    if (rules.length === 0) return NO_IDS;
    if (managedIds?.rules !== rules) managedIds = { rules, ids: new Set(rules.map((r) => r.id)) };
    return managedIds.ids;
  };
  return (approval, session, known) => {
    const facts = factsOf(approval, session.cwd);
    const mode =
      session.mode === 'bypassPermissions' && options.bypassAllowed?.() === false
        ? 'default'
        : session.mode;
    const managedRules = options.managedRules?.() ?? [];
    const evaluation = evaluate(
      facts,
      {
        mode,
        rules: options.rules(),
        managed: managedRules,
        grants: options.grants.activeFor(approval.agentId),
        now: options.now(),
      },
      { protectedEntries: options.protectedEntries?.(), gitDirs: known?.gitDirs },
    );
    if (evaluation.managed) evaluation.reason = `Managed policy: ${evaluation.reason}`;
    if (evaluation.verdict === 'ask')
      return {
        verdict: 'ask',
        reason: evaluation.reason,
        ...(evaluation.protectedWrite ? { protectedWrite: true as const } : {}),
      };
    const decider = deciderOf(evaluation.decidedBy, mode, managedIdsOf(managedRules));
    if (evaluation.verdict === 'allow') {
      const beyond = projectAllowInExtraFolder(
        evaluation.deciders ?? [evaluation.decidedBy],
        facts,
        session,
        { rules: options.rules(), grants: options.grants.activeFor(approval.agentId) },
      );
      if (beyond)
        return {
          verdict: 'ask',
          reason: `${evaluation.reason}; but that is for the project, not ${beyond}: a person decides`,
        };
      const reply = allowOnceReply(approval.options);
      // Only the agent's "always" would allow it: a standing approval nobody chose is not handed out.
      if (!reply) return { verdict: 'ask', reason: 'the agent’s only allow is its own “always”' };
      for (const d of evaluation.deciders ?? [evaluation.decidedBy]) {
        if (d.type === 'grant') void options.grants.used(d.grantId);
      }
      return { verdict: 'allow', reply, decider, reason: evaluation.reason };
    }
    return {
      verdict: 'deny',
      reply: rejectReply(approval.options),
      decider,
      reason: evaluation.reason,
    };
  };
}
