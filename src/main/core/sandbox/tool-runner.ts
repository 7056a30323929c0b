// The short programs the sandbox needs for itself: `mkfifo` for the shell tap, bubblewrap's own
// checks. The core hands in a runner that starts them through its agents' launcher
// (agents/launcher.ts): spawned on the core's thread, each held it for a fork of the whole core.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** How long a tool may run before it is ended and taken as failed. */
export const TOOL_TIMEOUT_MS = 10_000;

/** A tool that exited other than 0, did not run, or ran past its time: what it said on stderr. */
export class ToolFailedError extends Error {
  override name = 'ToolFailedError';

  constructor(
    message: string,
    readonly stderr: string,
    /**
     * Whether the tool ran and answered (a failing exit, or ended at its bound). False: it never
     * ran, or what ran it was lost; its answer is unknown, not "no".
     */
    readonly ran: boolean,
  ) {
    super(message);
  }
}

/** Runs `command` with no input and resolves with its stdout once it exited 0. */
export type ToolRunner = (command: string, args: readonly string[]) => Promise<string>;

/** Runs it from the calling thread, for a sandbox prepared without the core's launcher. */
export const runHere: ToolRunner = async (command, args) => {
  try {
    const { stdout } = await execFileAsync(command, [...args], {
      timeout: TOOL_TIMEOUT_MS,
      encoding: 'utf8',
    });
    return stdout;
  } catch (error) {
    const { stderr, message, code, killed } = error as {
      stderr?: string;
      message: string;
      code?: unknown;
      killed?: boolean;
    };
    throw new ToolFailedError(message, stderr ?? '', typeof code === 'number' || killed === true);
  }
};

/**
 * A tool's answer per key (a bubblewrap binary), found once and shared by the callers that ask
 * meanwhile. A failure is forgotten: the next caller asks again, as the person may have fixed it.
 */
export function askedOnce<A extends unknown[], T>(
  find: (key: string, ...rest: A) => Promise<T>,
): (key: string, ...rest: A) => Promise<T> {
  const answers = new Map<string, Promise<T>>();
  return (key, ...rest) => {
    let answer = answers.get(key);
    if (!answer) {
      answer = find(key, ...rest);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    return answer;
  };
}
