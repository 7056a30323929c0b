// The agent behind `gatehouse acp`: started as Gatehouse starts any agent (its allow-listed
// environment, its sandbox), in its own process group so that ending it reaches what it spawned.
import { spawn, type ChildProcess } from 'node:child_process';
import { behindLifeline, stopGroup, type AgentLaunch } from '../../main/core';

type Exit = { code: number | null; signal: NodeJS.Signals | null };

export interface AgentChild {
  child: ChildProcess;
  /** Resolves with the agent's exit status once it is gone. */
  exited: Promise<Exit>;
  /** TERM to the group, KILL after `graceMs`; resolves once the agent is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function startAgent(launch: AgentLaunch): AgentChild {
  // Outside bubblewrap the agent dies with this proxy however it ends (killed by the editor too).
  const lifeline = launch.lifeline ? behindLifeline(launch.command, launch.args) : null;
  const child = spawn(lifeline?.command ?? launch.command, lifeline?.args ?? launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    // stderr is the editor's to show, as if the editor had started the agent itself.
    stdio: ['pipe', 'pipe', 'inherit', ...(lifeline ? (['pipe'] as const) : [])],
    detached: process.platform !== 'win32',
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      void launch.cleanup();
      resolve({ code, signal });
    });
    child.once('error', () => {
      void launch.cleanup();
      resolve({ code: 127, signal: null });
    });
  });
  return {
    child,
    exited,
    async stop(graceMs = 2000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await stopGroup(child, exited, graceMs);
    },
  };
}
