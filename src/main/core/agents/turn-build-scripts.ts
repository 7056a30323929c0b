// The build files an agent changed during a turn without asking (sandbox/build-scripts.ts): listed
// at the end of the turn, in the audit and in the session view.
import type { EventBus } from '../events/bus';
import { logger } from '../log/logger';
import { changedBuildScripts, hashBuildScripts } from '../sandbox/build-scripts';
import type { Store } from '../store';
import type { Session } from './session';

const log = logger('sessions');

export interface TurnScriptDeps {
  store: Pick<Store, 'recordEvent'>;
  bus: EventBus;
  now: () => number;
}

/** Hashes the session folder's build files now; the returned function compares at the turn's end. */
export async function watchBuildScripts(
  session: Session,
  deps: TurnScriptDeps,
): Promise<() => Promise<void>> {
  const root = session.cwd;
  const promptId = session.promptId;
  const before = await hashBuildScripts(root);
  return async () => {
    try {
      const changes = await changedBuildScripts(root, before, await hashBuildScripts(root));
      for (const change of changes) {
        deps.store.recordEvent({
          type: 'build_script_changed',
          sessionId: session.sessionId,
          agentId: session.agentId,
          at: deps.now(),
          payload: { ...change, promptId },
        });
        deps.bus.publish({
          type: 'build_script_changed',
          sessionId: session.sessionId,
          agentId: session.agentId,
          ...change,
        });
      }
    } catch (error) {
      log.warn('build scripts of the turn:', (error as Error).message);
    }
  };
}
