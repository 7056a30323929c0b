// A session's agent made ready to start: its command line in the sandbox its settings ask for, the
// files that run later protected, the shells' refusals read. A start that cannot be prepared is
// audited with why, and refused.
import type { LaunchableAgent } from '../../../shared/settings';
import { BadRequestError } from '../errors';
import type { ProtectedEntry } from '../rules/protected-files';
import { prepareAgentLaunch, type AgentLaunch } from '../sandbox/launch';
import { LaunchFileChangedError } from '../sandbox/launch-file';
import { LauncherCommandError } from '../sandbox/launcher-command';
import { LauncherFetchError } from '../sandbox/launcher-fetch';
import type { ViolationReporter } from '../sandbox/violation-reporter';
import type { Store } from '../store';
import type { EventBus } from '../events/bus';
import { runThroughLauncher } from './launcher';
import type { Session } from './session';

export interface SessionLaunchDeps {
  home: string;
  store: Pick<Store, 'recordEvent'>;
  now: () => number;
  /** The protected files in force (the built-in list and the settings' additions). */
  protectedEntries?: () => readonly ProtectedEntry[];
  /** Where a launcher's fetch is told while the start waits for it. */
  bus?: Pick<EventBus, 'publish'>;
}

export async function launchInSandbox(
  session: Session,
  config: LaunchableAgent,
  violations: ViolationReporter,
  deps: SessionLaunchDeps,
): Promise<AgentLaunch> {
  const { agentId, cwd } = session;
  try {
    return await prepareAgentLaunch({
      agentId,
      config,
      sessionDir: cwd,
      additionalDirs: session.additionalDirectories,
      gatehouseHome: deps.home,
      onViolation: (violation) => violations.network(violation),
      protection: {
        entries: deps.protectedEntries?.(),
        onMove: (move) => violations.moved(move),
      },
      onShellStderr: (text) => violations.shellStderr(text),
      runTool: runThroughLauncher,
      onLauncherFetch: (progress) => {
        deps.bus?.publish({ type: 'launcher_fetch', agentId, ...progress });
        // What runs from now on for this command line: audited with the version it resolved to.
        if (progress.state === 'fetched') {
          deps.store.recordEvent({
            type: 'launcher_fetched',
            agentId,
            at: deps.now(),
            payload: { package: progress.package, pinned: progress.pinned },
          });
        }
      },
    });
  } catch (error) {
    deps.store.recordEvent({
      type: startErrorType(error),
      agentId,
      at: deps.now(),
      payload: { cwd, error: (error as Error).message },
    });
    throw new BadRequestError(`agent "${agentId}" did not start: ${(error as Error).message}`);
  }
}

function startErrorType(error: unknown): string {
  if (error instanceof LaunchFileChangedError) return 'launch_file_changed';
  if (error instanceof LauncherCommandError || error instanceof LauncherFetchError)
    return 'launcher_fetch_failed';
  return 'sandbox_unavailable';
}
