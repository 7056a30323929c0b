import { normalizeProgram } from './programs';

// Shells whose `-c` script is in the grammar the analysis parses.
const UNWRAPPED: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash']);
// `-c` with only the login and interactive flags beside it: they choose which start-up files run,
// not what the script does.
const CODE_FLAG = /^-[il]*c[il]*$/;

/**
 * The script of an argv that only hands a script to a shell (`["bash", "-lc", "npm test"]`, as
 * Codex sends every command), or null. In an argv the script is one literal word, so it is what
 * the shell runs, and rules and grants judge it as if it had been sent alone. Anything else in the
 * argv (another option, an argument after the script) keeps the argv whole and opaque.
 */
export function scriptOfShellArgv(argv: readonly string[]): string | null {
  if (argv.length !== 3) return null;
  const [program, flag, script] = argv as [string, string, string];
  if (!UNWRAPPED.has(normalizeProgram(program)) || !CODE_FLAG.test(flag)) return null;
  return script;
}
