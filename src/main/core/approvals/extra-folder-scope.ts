// "This project" names the session folder. A session may also work in folders the person added to
// it alone (ACP `additionalDirectories`): an allow that rests on the project (a rule's `project`, a
// grant kept for the project) does not reach into them, or adding a folder to one session would
// silently hand it every standing permission of the project. A person is asked instead. Rules and
// grants that are not tied to the project (a path glob naming the folder, an agent-wide grant, one
// for this session) apply there as anywhere.
import { isAbsolute, resolve } from 'node:path';
import type { Rule } from '../../../shared/rules';
import { isInside } from '../fs/containment';
import type { DecidedBy, Grant, RequestFacts } from '../rules';
import type { SessionContext } from './session-context';

/**
 * Why an allow resting on the project does not stand in this session, or null. It names the
 * additional folder a path of the request is in; for a command, the folder its finished preview
 * changed something in, or that nothing says where it writes (the sandbox lets it write in every
 * folder of the session).
 */
export function projectAllowInExtraFolder(
  deciders: readonly DecidedBy[],
  facts: Pick<RequestFacts, 'paths' | 'command' | 'preview'>,
  session: Pick<SessionContext, 'cwd' | 'additionalDirectories'>,
  standing: { rules: readonly Rule[]; grants: readonly Grant[] },
): string | null {
  const extra = session.additionalDirectories ?? [];
  if (extra.length === 0) return null;
  const byProject = deciders.some((d) =>
    d.type === 'rule'
      ? standing.rules.some((r) => r.id === d.ruleId && r.project !== undefined)
      : d.type === 'grant' &&
        standing.grants.some((g) => g.id === d.grantId && g.scope === 'project'),
  );
  if (!byProject) return null;
  if (facts.command !== undefined && facts.preview?.complete !== true)
    return 'a command whose preview does not say it stays out of the additional folders';
  for (const path of [...(facts.paths ?? []), ...(facts.preview?.changed ?? [])]) {
    const target = isAbsolute(path) ? path : resolve(session.cwd, path);
    if (isInside(target, session.cwd)) continue;
    const folder = extra.find((dir) => isInside(target, dir));
    if (folder !== undefined) return `the additional folder ${folder}`;
  }
  return null;
}
