import type { SessionInfo } from '../../../shared/domain';

/** Where a session runs when it was not started here: "Zed", "a terminal (Claude Code)". */
export function runsIn(via: SessionInfo['via']): string | null {
  if (!via) return null;
  return via.kind === 'terminal' ? `a terminal (${via.name})` : via.name;
}
