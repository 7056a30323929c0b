import { normalizeProgram } from './programs';

// Shells whose `-c` script is in the grammar the analysis parses.
const UNWRAPPED: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash']);
// Where a shell named by its full path is the system's (Codex sends `/bin/bash`). Anywhere else the
// file is whatever someone put there: `/tmp/x/bash -lc "npm test"` runs that file, not npm.
const SYSTEM_BIN_DIRS: ReadonlySet<string> = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/opt/homebrew/bin',
]);
// `-c` with only the login and interactive flags beside it: they choose which start-up files run,
// not what the script does.
const CODE_FLAG = /^-[il]*c[il]*$/;

/** A shell named bare (found on PATH, as any bare command is) or by its path in a system folder. */
function isUnwrappedShell(program: string): boolean {
  const cut = program.lastIndexOf('/');
  if (cut === -1) return !program.includes('\\') && UNWRAPPED.has(normalizeProgram(program));
  const dir = program.slice(0, cut);
  const name = program.slice(cut + 1);
  return SYSTEM_BIN_DIRS.has(dir) && UNWRAPPED.has(name);
}

/**
 * The script of an argv that only hands a script to a shell (`["/bin/bash", "-lc", "npm test"]`,
 * as Codex sends every command), or null. In an argv the script is one literal word, so it is what
 * the shell runs, and rules and grants judge it as if it had been sent alone. Anything else in the
 * argv (another option, an argument after the script, a shell outside the system folders) keeps
 * the argv whole and opaque.
 */
export function scriptOfShellArgv(argv: readonly string[]): string | null {
  if (argv.length !== 3) return null;
  const [program, flag, script] = argv as [string, string, string];
  if (!isUnwrappedShell(program) || !CODE_FLAG.test(flag)) return null;
  return script;
}
