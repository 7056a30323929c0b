// Some benches need node started with flags V8 reads only when it sets up the heap (a collector the
// bench may call, the core's own flags): run by `npm run bench` without them, such a bench runs
// itself again in a child started with them, which prints its own report.
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Whether this process was started with every one of `flags`. */
export function startedWith(flags: readonly string[]): boolean {
  return flags.every((flag) => process.execArgv.includes(flag));
}

/** Runs the bench `file` in a child started with `flags`, to its end; throws if it failed. */
export async function runInChildWith(flags: readonly string[], file: string): Promise<void> {
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', file], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${relative(ROOT, file)} exited with code ${code}`);
}
