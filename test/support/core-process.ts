// A headless core as its own process, started from the sources with `node --import tsx` (one
// process, so a signal reaches the core itself), and any command run to its end.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface CoreProcess {
  child: ChildProcess;
  pid: number;
  /** The URL it printed (token and pairing secret in the fragment). */
  url: string;
  exited: Promise<number | null>;
  /** SIGTERM (a clean stop) unless told otherwise; resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

const coreEnv = (home: string, env: Record<string, string>) => ({
  ...process.env,
  GATEHOUSE_HOME: home,
  GATEHOUSE_PORT: '0',
  ...env,
});

/**
 * `ownGroup`: the core leads a process group of its own, as a terminal's foreground job does, so
 * that a signal to the group reaches it and what it forked (the agent launcher), as Ctrl-C does.
 */
export function startCoreProcess(
  home: string,
  env: Record<string, string> = {},
  { ownGroup = false }: { ownGroup?: boolean } = {},
): Promise<CoreProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/headless.ts'], {
    env: coreEnv(home, env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const seen: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no core after 30 s:\n${seen.join('\n')}`)),
      30_000,
    );
    void exited.then((code) => reject(new Error(`the core exited ${code}:\n${seen.join('\n')}`)));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        seen.push(line);
        const url = /^Gatehouse is running at (\S+)/.exec(line)?.[1];
        if (!url) return;
        clearTimeout(timer);
        resolve({
          child,
          pid: child.pid!,
          url,
          exited,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      });
    }
  });
}

/** `node <args>` from the checkout, to its exit. */
export function runNode(args: string[], env: Record<string, string>): Promise<Finished> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The headless entry from the sources, to its exit (a core that is refused ends by itself). */
export const runCoreToExit = (home: string) =>
  runNode(['--import', 'tsx', 'src/main/headless.ts'], {
    GATEHOUSE_HOME: home,
    GATEHOUSE_PORT: '0',
  });
