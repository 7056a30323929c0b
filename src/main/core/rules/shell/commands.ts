/**
 * What the analyser knows about particular programs: which ones run code they are given as text,
 * which ones run another command (wrappers), which builtins change how later words are read.
 * Lists, not cleverness: an unknown program is just a simple command that rules can match.
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

/** Shells: `-c` takes code, no script operand means code from stdin. */
export const SHELLS = new Set([
  'sh',
  'bash',
  'rbash',
  'zsh',
  'dash',
  'ksh',
  'ksh93',
  'mksh',
  'oksh',
  'pdksh',
  'yash',
  'ash',
  'posh',
  'fish',
  'csh',
  'tcsh',
  'elvish',
  'nu',
  'xonsh',
]);

/** Shell options that consume the next word. */
export const SHELL_ARG_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

export interface InterpreterSpec {
  /** Letters that, in a short option cluster, mean "the code follows". */
  codeLetters: string;
  /** Letters whose option takes an argument (the rest of the cluster or the next word). */
  argLetters: string;
  /** Long options that carry code (`--eval`, `--eval=…`). */
  longCode: string[];
  /** Subcommands that take code (`deno eval`). */
  codeSubcommands?: string[];
  /** Compare options case-insensitively (PowerShell). */
  caseInsensitive?: boolean;
  /** PowerShell-style single-dash long options that carry code. */
  dashLongCode?: string[];
}

const PYTHON: InterpreterSpec = { codeLetters: 'c', argLetters: 'WXQm', longCode: [] };
const NODE: InterpreterSpec = {
  codeLetters: 'ep',
  argLetters: 'rC',
  longCode: ['--eval', '--print'],
};

export function interpreterSpec(base: string): InterpreterSpec | null {
  if (/^(python|pypy)[0-9.]*$/.test(base)) return PYTHON;
  if (/^perl[0-9.]*$/.test(base))
    return { codeLetters: 'eE', argLetters: 'IMmdDxl0C', longCode: [] };
  if (/^(ruby|jruby)[0-9.]*$/.test(base))
    return { codeLetters: 'e', argLetters: 'IrCEFx', longCode: [] };
  if (/^php[0-9.]*$/.test(base))
    return { codeLetters: 'rRBEF', argLetters: 'cdz', longCode: ['--run'] };
  if (/^(lua|luajit)[0-9.]*$/.test(base))
    return { codeLetters: 'e', argLetters: 'l', longCode: [] };
  switch (base) {
    case 'node':
    case 'nodejs':
    case 'bun':
    case 'tsx':
    case 'ts-node':
      return NODE;
    case 'deno':
      return { codeLetters: '', argLetters: '', longCode: [], codeSubcommands: ['eval', 'repl'] };
    case 'Rscript':
    case 'R':
    case 'osascript':
    case 'julia':
    case 'groovy':
    case 'elixir':
    case 'ghci':
      return { codeLetters: 'e', argLetters: '', longCode: ['--eval'] };
    case 'erl':
      return { codeLetters: '', argLetters: '', longCode: [], dashLongCode: ['-eval'] };
    case 'tclsh':
    case 'expect':
      return { codeLetters: 'c', argLetters: '', longCode: [] };
    case 'pwsh':
    case 'powershell':
    case 'pwsh.exe':
    case 'powershell.exe':
      return {
        codeLetters: 'ce',
        argLetters: '',
        longCode: [],
        caseInsensitive: true,
        dashLongCode: ['-command', '-encodedcommand', '-ec', '-enc', '-commandwithargs', '-cwa'],
      };
    default:
      return null;
  }
}

/**
 * Builtins (and one program) that evaluate text as code or change how later commands are looked
 * up or parsed. They are opaque whatever their arguments.
 */
export const OPAQUE_BUILTINS: Record<string, string> = {
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
};

/** For these opaque builtins, the rest of the words is itself shell code worth a look for deny rules. */
export const CODE_ARG_BUILTINS = new Set(['eval', 'trap']);

export interface WrapperSpec {
  /** Options that consume the next word (or carry it after `=`). */
  argOptions: string[];
  /** Operands between the options and the wrapped command (`timeout 5 cmd`, `chroot /x cmd`). */
  operands: number;
  /** Option introducing shell code (`su -c '…'`, `flock -c '…'`). */
  codeOption?: string;
  /** Everything after the options and operands is joined and run by a shell (`watch`, `ssh`). */
  joinsCode?: boolean;
  reason: string;
}

/**
 * Programs that run another command. They are opaque (the brief: never auto-allow through a
 * wrapper); the inner command is still extracted so deny rules see it.
 */
export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    argOptions: [
      '-u',
      '-g',
      '-p',
      '-C',
      '-D',
      '-r',
      '-t',
      '-U',
      '-T',
      '-h',
      '--user',
      '--group',
      '--prompt',
      '--chdir',
      '--role',
      '--type',
      '--other-user',
      '--close-from',
      '--host',
    ],
    operands: 0,
    reason: '`sudo` runs a command as another user',
  },
  doas: { argOptions: ['-u', '-C'], operands: 0, reason: '`doas` runs a command as another user' },
  su: {
    argOptions: ['-s', '-g', '-G', '--shell', '--group'],
    operands: 0,
    codeOption: '-c',
    reason: '`su` runs a command as another user',
  },
  runuser: {
    argOptions: ['-u', '-g', '-G', '-s', '--user', '--group', '--shell'],
    operands: 0,
    codeOption: '-c',
    reason: '`runuser` runs a command as another user',
  },
  pkexec: {
    argOptions: ['--user'],
    operands: 0,
    reason: '`pkexec` runs a command as another user',
  },
  xargs: {
    argOptions: [
      '-a',
      '-d',
      '-E',
      '-e',
      '-I',
      '-i',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
    operands: 0,
    reason: '`xargs` builds and runs commands from its input',
  },
  parallel: {
    argOptions: ['-j', '-S', '--jobs', '--sshlogin'],
    operands: 0,
    reason: '`parallel` builds and runs commands',
  },
  nohup: {
    argOptions: [],
    operands: 0,
    reason: '`nohup` runs a command detached (and writes nohup.out)',
  },
  timeout: {
    argOptions: ['-s', '-k', '--signal', '--kill-after'],
    operands: 1,
    reason: '`timeout` wrapper',
  },
  gtimeout: {
    argOptions: ['-s', '-k', '--signal', '--kill-after'],
    operands: 1,
    reason: '`gtimeout` wrapper',
  },
  stdbuf: {
    argOptions: ['-i', '-o', '-e', '--input', '--output', '--error'],
    operands: 0,
    reason: '`stdbuf` wrapper',
  },
  setsid: { argOptions: [], operands: 0, reason: '`setsid` wrapper' },
  chroot: { argOptions: ['--userspec', '--groups'], operands: 1, reason: '`chroot` wrapper' },
  unshare: { argOptions: [], operands: 0, reason: '`unshare` wrapper' },
  nsenter: {
    argOptions: ['-t', '-S', '-G', '--target', '--setuid', '--setgid'],
    operands: 0,
    reason: '`nsenter` wrapper',
  },
  flock: {
    argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'],
    operands: 1,
    codeOption: '-c',
    reason: '`flock` wrapper',
  },
  script: {
    argOptions: ['-E', '-I', '-O', '-T', '-t', '--log-in', '--log-out', '--log-timing'],
    operands: 0,
    codeOption: '-c',
    reason: '`script` runs a command',
  },
  strace: {
    argOptions: ['-e', '-o', '-p', '-s', '-u', '-E', '-P', '-I', '-a', '-b', '-O', '-S', '-X'],
    operands: 0,
    reason: '`strace` wrapper',
  },
  ltrace: {
    argOptions: ['-e', '-o', '-p', '-s', '-u', '-a', '-n', '-A', '-D', '-F', '-l', '-w', '-x'],
    operands: 0,
    reason: '`ltrace` wrapper',
  },
  taskset: { argOptions: [], operands: 1, reason: '`taskset` wrapper' },
  ionice: {
    argOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'],
    operands: 0,
    reason: '`ionice` wrapper',
  },
  chrt: { argOptions: [], operands: 1, reason: '`chrt` wrapper' },
  busybox: { argOptions: [], operands: 0, reason: '`busybox` runs an applet' },
  'systemd-run': {
    argOptions: [
      '-p',
      '-E',
      '-u',
      '--unit',
      '--property',
      '--setenv',
      '--uid',
      '--gid',
      '--working-directory',
      '--description',
      '--slice',
    ],
    operands: 0,
    reason: '`systemd-run` runs a command',
  },
  caffeinate: { argOptions: ['-w', '-t'], operands: 0, reason: '`caffeinate` wrapper' },
  unbuffer: { argOptions: [], operands: 0, reason: '`unbuffer` wrapper' },
  firejail: { argOptions: [], operands: 0, reason: '`firejail` wrapper' },
  'dbus-run-session': { argOptions: [], operands: 0, reason: '`dbus-run-session` wrapper' },
  watch: {
    argOptions: ['-n', '-d', '-g', '--interval', '--differences'],
    operands: 0,
    joinsCode: true,
    reason: '`watch` runs its arguments through `sh -c`',
  },
  ssh: {
    argOptions: [
      '-p',
      '-i',
      '-l',
      '-o',
      '-F',
      '-J',
      '-L',
      '-R',
      '-D',
      '-b',
      '-c',
      '-E',
      '-e',
      '-I',
      '-m',
      '-O',
      '-Q',
      '-S',
      '-W',
      '-w',
      '-B',
    ],
    operands: 1,
    joinsCode: true,
    reason: '`ssh` runs its arguments as shell code on another host',
  },
  // Wrappers below are unwrapped exactly when their options are simple (see analyze.ts), and fall
  // back to this entry otherwise.
  env: {
    argOptions: ['-u', '-C', '-S', '--unset', '--chdir', '--split-string'],
    operands: 0,
    reason: '`env` with options',
  },
  time: {
    argOptions: ['-o', '-f', '--output', '--format'],
    operands: 0,
    reason: '`time` with options',
  },
  nice: { argOptions: ['-n', '--adjustment'], operands: 0, reason: '`nice` with options' },
};

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
