import type { SessionInfo } from '../../../shared/domain';

/** A row of the sessions list: a session, and the ended ones just like it folded under it. */
export interface SessionRun {
  session: SessionInfo;
  /** Earlier ended sessions of the same agent, folder, mode, sandbox and ending, newest first. */
  alike: SessionInfo[];
}

/** What makes two ended sessions read the same in the list. */
const looks = (s: SessionInfo) =>
  JSON.stringify([s.agentId, s.cwd, s.via ?? null, s.mode, s.sandbox.profile, s.endReason ?? null]);

/**
 * The list newest first, each run of ended sessions that would read the same folded into its
 * newest one: a start that fails again and again (an agent that exits, a sign-in not done) lists
 * once with a count, not as a column of identical rows. Open sessions, and those that can be
 * resumed, are never folded.
 */
export function foldSessions(sessions: readonly SessionInfo[]): SessionRun[] {
  const runs: SessionRun[] = [];
  for (const session of [...sessions].sort((a, b) => b.createdAt - a.createdAt)) {
    const last = runs.at(-1);
    // One that can be resumed is a row of its own: folded, its Resume would be out of sight.
    const folds = (s: SessionInfo) => s.state === 'closed' && !s.resumable;
    if (last && folds(session) && folds(last.session) && looks(last.session) === looks(session))
      last.alike.push(session);
    else runs.push({ session, alike: [] });
  }
  return runs;
}
