// A command run once in a throwaway copy-on-write view of its writable roots, to see what it would
// change before anyone allows it. Each root is covered by an overlay whose upper folder lives outside
// it, inside a new user, mount, network and PID namespace: the command writes at the roots' own
// paths, nothing reaches the real files, and killing the namespace's first process ends every
// process the command started. bubblewrap 0.8 has no overlay options, so the namespaces come from
// util-linux's unshare; where unprivileged namespaces or overlays are refused the run says
// "unavailable" and never falls back to running the command for real.
import { spawn } from 'node:child_process';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScratchRunInput {
  /** Folders the command may change, each seen through its own overlay. Absolute, real paths. */
  roots: readonly string[];
  cwd: string;
  /** The exact command line, run by /bin/sh -c. */
  command: string;
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Largest file the command may write, in bytes (the shell's file-size limit). */
  maxFileBytes?: number;
  /** Address space each of its processes may take, in bytes. */
  maxMemoryBytes?: number;
  /** Where the scratch folders go: never inside a root. Defaults to the system's temp folder. */
  scratchParent?: string;
}

export type LayerChangeKind = 'created' | 'modified' | 'deleted';

export interface LayerChange {
  /** The path at the root, as the person knows it. */
  path: string;
  change: LayerChangeKind;
  entry: 'file' | 'folder' | 'link' | 'other';
  /** Bytes written, for files. */
  size?: number;
}

export interface ScratchResult {
  state: 'finished' | 'timed_out' | 'unavailable';
  /** Why the run could not happen, for "unavailable". */
  reason?: string;
  exitCode: number | null;
  /** The last of what it printed (stdout and stderr together). */
  output: string;
  changes: LayerChange[];
  durationMs: number;
}

const OUTPUT_KEEP = 16 * 1024;
const MOUNT_FAILED = 97;
const DEFAULT_MAX_FILE = 256 * 1024 * 1024;
const DEFAULT_MAX_MEMORY = 2 * 1024 * 1024 * 1024;

const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

function script(input: ScratchRunInput, scratch: string): string {
  const lines = ['set -e'];
  input.roots.forEach((root, i) => {
    const upper = join(scratch, `upper-${i}`);
    const work = join(scratch, `work-${i}`);
    lines.push(
      `mkdir -p ${quote(upper)} ${quote(work)}`,
      // userxattr: the overlay's own marks as user.* attributes, which a user namespace may write.
      `mount -t overlay overlay -o userxattr,lowerdir=${quote(root)},upperdir=${quote(upper)},workdir=${quote(work)} ${quote(root)} || exit ${MOUNT_FAILED}`,
    );
  });
  const blocks = Math.ceil((input.maxFileBytes ?? DEFAULT_MAX_FILE) / 1024);
  const memory = Math.ceil((input.maxMemoryBytes ?? DEFAULT_MAX_MEMORY) / 1024);
  // CPU seconds per process: a busy loop that forks away from the time bound still ends.
  const cpu = Math.ceil(input.timeoutMs / 1000) + 1;
  lines.push(
    'set +e',
    `ulimit -f ${blocks}`,
    `ulimit -v ${memory}`,
    `ulimit -t ${cpu}`,
    `cd ${quote(input.cwd)}`,
    `exec /bin/sh -c ${quote(input.command)}`,
  );
  return lines.join('\n');
}

/** Runs `input.command` in a scratch layer over `input.roots` and lists what it changed there. */
export async function runInScratchLayer(input: ScratchRunInput): Promise<ScratchResult> {
  const started = Date.now();
  const scratch = await mkdtemp(join(input.scratchParent ?? tmpdir(), 'gatehouse-scratch-'));
  try {
    const run = await spawnLayer(input, scratch);
    const took = Date.now() - started;
    if (run.exitCode === MOUNT_FAILED || run.spawnError) {
      return {
        state: 'unavailable',
        reason: run.spawnError ?? `no overlay in a user namespace here: ${run.output.trim()}`,
        exitCode: null,
        output: '',
        changes: [],
        durationMs: took,
      };
    }
    const changes: LayerChange[] = [];
    for (const [i, root] of input.roots.entries()) {
      changes.push(...(await listUpper(join(scratch, `upper-${i}`), root, '')));
    }
    return {
      state: run.timedOut ? 'timed_out' : 'finished',
      exitCode: run.timedOut ? null : run.exitCode,
      output: run.output,
      changes,
      durationMs: took,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

interface SpawnOutcome {
  exitCode: number | null;
  timedOut: boolean;
  output: string;
  spawnError?: string;
}

function spawnLayer(input: ScratchRunInput, scratch: string): Promise<SpawnOutcome> {
  return new Promise((resolve) => {
    const child = spawn(
      'unshare',
      ['--user', '--map-root-user', '--mount', '--net', '--pid', '--fork', '--kill-child'],
      { env: { ...input.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true },
    );
    let output = '';
    let timedOut = false;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // The namespace's first process dies with unshare, and every process in it with that one.
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, input.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, timedOut: false, output, spawnError: `unshare: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut, output });
    });
    child.stdin.end(script(input, scratch));
  });
}

async function lowerEntry(path: string): Promise<'folder' | 'other' | null> {
  try {
    return (await lstat(path)).isDirectory() ? 'folder' : 'other';
  } catch {
    return null;
  }
}

/** What an upper folder holds, read as changes to the root it covered. */
async function listUpper(upper: string, root: string, rel: string): Promise<LayerChange[]> {
  const out: LayerChange[] = [];
  const names = await readdir(join(upper, rel)).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const relPath = rel ? join(rel, name) : name;
    const stat = await lstat(join(upper, relPath));
    const path = join(root, relPath);
    const before = await lowerEntry(path);
    // A whiteout (a character device 0:0) marks what the command removed.
    if (stat.isCharacterDevice() && stat.rdev === 0) {
      out.push({ path, change: 'deleted', entry: before === 'folder' ? 'folder' : 'file' });
      continue;
    }
    if (stat.isDirectory()) {
      if (before !== 'folder') out.push({ path, change: 'created', entry: 'folder' });
      out.push(...(await listUpper(upper, root, relPath)));
      continue;
    }
    const entry = stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'link' : 'other';
    out.push({
      path,
      change: before ? 'modified' : 'created',
      entry,
      ...(entry === 'file' ? { size: stat.size } : {}),
    });
  }
  return out;
}
