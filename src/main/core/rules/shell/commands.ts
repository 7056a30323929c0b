/**
 * What the analyser knows about the shell itself: reserved words, builtins that change how later
 * words are read, variables that change which program runs, redirections that write files.
 * Programs are in programs.ts, wrappers in wrappers.ts.
 */

/**
 * Unquoted reserved words in command position. tree-sitter-bash sometimes parses them as plain
 * command names (`time { ls; }` becomes `time {` + `ls` + `}`), so seeing one means the tree does
 * not describe what bash will do.
 */
export const MISPARSE_GUARD_WORDS = new Set([
  '!',
  '{',
  '}',
  '[[',
  ']]',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'function',
]);

/**
 * Builtins (and one program) that evaluate text as code or change how later commands are looked
 * up or parsed. They are opaque whatever their arguments. (A Map, like every table looked up by a
 * command name: a command named `constructor` must not find Object's.)
 */
export const OPAQUE_BUILTINS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    eval: '`eval` runs its arguments as shell code',
    source: '`source` runs a script in the current shell',
    '.': '`.` runs a script in the current shell',
    exec: '`exec` replaces the shell with another command',
    trap: '`trap` registers shell code to run later',
    alias: '`alias` changes what later command names mean',
    enable: '`enable` changes which builtins exist',
    hash: '`hash` changes where later commands are found',
    let: '`let` evaluates arithmetic, which can run code through array subscripts',
    coproc: '`coproc` runs a command in the background',
    fc: '`fc` re-runs commands from history',
    bind: '`bind` can attach shell code to keys',
    command: '`command` wrapper',
    builtin: '`builtin` wrapper',
    mapfile: '`mapfile` can run a callback',
    readarray: '`readarray` can run a callback',
    complete: '`complete` can register shell code',
    compgen: '`compgen` can run shell code',
    shopt: '`shopt` changes how later lines are parsed',
  }),
);

/** For these opaque builtins, the rest of the words is itself shell code worth a look for deny rules. */
export const CODE_ARG_BUILTINS = new Set(['eval', 'trap']);

/**
 * Environment variables that change which program runs or what it loads (`PATH=. ls`,
 * `LD_PRELOAD=x.so ls`, `GIT_SSH_COMMAND=… git fetch`, `HOME=/tmp/x git …` reading another
 * .gitconfig). Assigning them before a command, or as a statement, makes the line opaque.
 * A heuristic list; anything not here is treated as data.
 */
const DANGEROUS_ENV =
  /^(PATH|IFS|ENV|BASH_ENV|CDPATH|GLOBIGNORE|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|HOME|ZDOTDIR|SHELL|EDITOR|VISUAL|PAGER|MANPAGER|BROWSER|LESSOPEN|LESSCLOSE|TERMINAL|NODE_OPTIONS|NODE_PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PYTHONINSPECT|PYTHONUSERBASE|SUDO_ASKPASS|SSH_ASKPASS|LD_[A-Z_]*|DYLD_[A-Z_]*|GIT_[A-Z_]*|XDG_[A-Z_]*|BASH_FUNC_.*|npm_config_.*|NPM_CONFIG_.*)$/;

export function isDangerousEnv(name: string): boolean {
  return DANGEROUS_ENV.test(name);
}

/** `set` flags that only change error handling/tracing, never what a word means. */
export const SAFE_SET_FLAGS = /^[-+][euxvEh]+$/;
export const SAFE_SET_O = new Set([
  'pipefail',
  'errexit',
  'nounset',
  'xtrace',
  'verbose',
  'errtrace',
]);

/** `declare`/`export`/… options that do not evaluate values (-i does arithmetic, -n is a nameref). */
export const SAFE_DECLARE_FLAGS = /^[-+][xrpglu]+$/;

/** Redirect targets that are not files anyone cares about. */
export const HARMLESS_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** Does this redirect write to a file (as opposed to reading, duplicating a descriptor, /dev/null)? */
export function isFileWrite(op: string, target: string): boolean {
  if (op === '>&') return !/^(\d+|-)$/.test(target) && !HARMLESS_SINKS.has(target);
  if (!WRITE_OPS.has(op)) return false;
  return !HARMLESS_SINKS.has(target);
}
