// What a shell inside the sandbox is refused, even when the agent keeps the shell's output to
// itself (Gemini CLI hands a command's output to its model only: nothing reaches its stderr or its
// client). bash reads the file named by BASH_ENV before every script and `bash -c`; this one copies
// the shell's stderr into a FIFO that Gatehouse reads, and the violation reporter searches it for
// refusals (EROFS, EACCES) as it searches the agent's own stderr.
//
// What it cannot see: a shell that is not bash, or bash as `sh` (POSIX mode ignores BASH_ENV), an
// agent that unsets BASH_ENV or redirects a command's stderr inside the command line, and programs
// that report a refusal in words of their own. It adds to the reports; it decides nothing.
import { constants, openSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { runHere, type ToolRunner } from './tool-runner';
import { launchFolderPrefix } from './launch-folders';

/** What is passed on for one session: past it the FIFO is still drained, never read. */
export const SHELL_STDERR_LIMIT = 4 * 1024 * 1024;

/** Where the sandbox sees the tap's files: its own temp folder, so that the data folder stays shut. */
export const SHELL_TAP_INSIDE = '/tmp/.gatehouse';

export interface ShellStderrTap {
  /** The value of BASH_ENV inside the sandbox. */
  bashEnv: string;
  /** The script and the FIFO it writes to, to bind read-only into the sandbox. */
  files: { source: string; target: string }[];
  /** Stops reading and removes both. Idempotent. */
  close(): Promise<void>;
}

/**
 * Makes the FIFO and the script in a folder of their own under `runDir` (Gatehouse's data folder,
 * hidden from every sandbox), and reads the FIFO until close(), handing at most `limit` bytes of
 * text to `onText`. Node has no mkfifo of its own: `run` runs the program that makes it.
 */
export async function openShellStderrTap(
  runDir: string,
  onText: (text: string) => void,
  run: ToolRunner = runHere,
  limit = SHELL_STDERR_LIMIT,
): Promise<ShellStderrTap> {
  const dir = await mkdtemp(launchFolderPrefix(runDir, 'shell'));
  const fifo = join(dir, 'stderr');
  const script = join(dir, 'bash-env.sh');
  let reader: Socket | null = null;
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      reader?.destroy();
      await rm(dir, { recursive: true, force: true });
    })());
  try {
    await run('mkfifo', ['-m', '0600', fifo]);
    writeFileSync(script, bashEnv(join(SHELL_TAP_INSIDE, 'stderr')), { mode: 0o444 });
    // Read and write, without blocking: the FIFO never reaches end of file while the session runs,
    // and a shell opening it to write never waits for a reader.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    reader = new Socket({ fd, readable: true, writable: false });
    let passed = 0;
    reader.setEncoding('utf8');
    reader.on('data', (text: string) => {
      if (passed >= limit) return;
      const part = text.slice(0, limit - passed);
      passed += part.length;
      onText(part);
    });
    reader.on('error', () => reader?.destroy());
    return {
      bashEnv: join(SHELL_TAP_INSIDE, 'bash-env.sh'),
      files: [
        { source: script, target: join(SHELL_TAP_INSIDE, 'bash-env.sh') },
        { source: fifo, target: join(SHELL_TAP_INSIDE, 'stderr') },
      ],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The BASH_ENV file. stderr goes through `tee`, on to where it went and a copy into the FIFO. The
 * shell waits for tee when it exits (2 s at most: something started in the background may hold
 * the pipe), so that the agent reads the whole of a command's output before it sees the exit; tee
 * runs as a coprocess, whose output pipe closes only when tee is done. A script that sets its own
 * EXIT trap, or `exec`s another program, does not wait: its last lines may reach the agent late.
 */
export function bashEnv(fifo: string): string {
  const quoted = `'${fifo.replaceAll("'", `'\\''`)}'`;
  return [
    '# Written by Gatehouse for one sandboxed launch: a copy of each shell’s error output goes to',
    '# Gatehouse, which reports what the sandbox refused.',
    `if [ -p ${quoted} ] && [ -w ${quoted} ]; then`,
    '  exec {__gatehouse_err}>&2',
    `  coproc __GATEHOUSE_TEE { exec 3>&1; exec tee -a ${quoted} >&"$__gatehouse_err"; }`,
    '  exec 2>&"${__GATEHOUSE_TEE[1]}"',
    '  __gatehouse_flush() {',
    '    exec 2>&"$__gatehouse_err"',
    '    eval "exec ${__GATEHOUSE_TEE[1]}>&-"',
    '    read -rt 2 -u "${__GATEHOUSE_TEE[0]}" _',
    '  }',
    '  trap __gatehouse_flush EXIT',
    'fi',
    '',
  ].join('\n');
}
