/**
 * The program table: what the shell analysis, and the warnings that read it, know about particular
 * programs — which run code (shells, interpreters), and what others do (download, use the network,
 * change files). Wrappers are in wrappers.ts, builtins in commands.ts. Lists, not cleverness: an
 * unknown program is just a simple command that rules can match.
 */

/** The last path segment of a command name (`/usr/bin/rm` → `rm`), without touching the FS. */
export function commandBasename(name: string): string {
  const trimmed = name.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}

/**
 * The name a program is looked up by: basename, lower case, without `.exe`. `/usr/bin/curl` and
 * `CURL.EXE` are both `curl`: on macOS and Windows file systems the case of a name does not matter.
 */
export function normalizeProgram(word: string): string {
  const cut = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  const base = (cut === -1 ? word : word.slice(cut + 1)).toLowerCase();
  return base.endsWith('.exe') ? base.slice(0, -4) : base;
}

/** Shells: `-c` takes code, no script operand means code from stdin. */
// prettier-ignore
export const SHELLS: ReadonlySet<string> = new Set([
  'sh', 'bash', 'rbash', 'zsh', 'dash', 'ksh', 'ksh93', 'mksh', 'oksh', 'pdksh', 'yash', 'ash',
  'posh', 'fish', 'csh', 'tcsh', 'elvish', 'nu', 'xonsh',
]);

/** Shell options that consume the next word. */
export const SHELL_ARG_OPTIONS: ReadonlySet<string> = new Set([
  '-o',
  '+o',
  '-O',
  '+O',
  '--rcfile',
  '--init-file',
]);

/** Script operands that are the program's own input: `bash /dev/stdin` reads code like `bash -s`. */
export const STDIN_PATHS: ReadonlySet<string> = new Set(['-', '/dev/stdin', '/dev/fd/0']);

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
const EVAL_OPTION: InterpreterSpec = { codeLetters: 'e', argLetters: '', longCode: ['--eval'] };

/** How an interpreter takes code on its command line, by normalised name; null for other programs. */
export function interpreterSpec(program: string): InterpreterSpec | null {
  if (/^(python|pypy)[0-9.]*$/.test(program)) return PYTHON;
  if (/^perl[0-9.]*$/.test(program))
    return { codeLetters: 'eE', argLetters: 'IMmdDxl0C', longCode: [] };
  if (/^(ruby|jruby)[0-9.]*$/.test(program))
    return { codeLetters: 'e', argLetters: 'IrCEFx', longCode: [] };
  if (/^php[0-9.]*$/.test(program))
    return { codeLetters: 'rRBEF', argLetters: 'cdz', longCode: ['--run'] };
  if (/^(lua|luajit)[0-9.]*$/.test(program))
    return { codeLetters: 'e', argLetters: 'l', longCode: [] };
  switch (program) {
    case 'node':
    case 'nodejs':
    case 'bun':
    case 'tsx':
    case 'ts-node':
      return NODE;
    case 'deno':
      return { codeLetters: '', argLetters: '', longCode: [], codeSubcommands: ['eval', 'repl'] };
    case 'rscript':
    case 'r':
    case 'osascript':
    case 'julia':
    case 'groovy':
    case 'elixir':
    case 'ghci':
      return EVAL_OPTION;
    case 'erl':
      return { codeLetters: '', argLetters: '', longCode: [], dashLongCode: ['-eval'] };
    case 'tclsh':
    case 'expect':
      return { codeLetters: 'c', argLetters: '', longCode: [] };
    case 'pwsh':
    case 'powershell':
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

/** PowerShell's eval: runs the text it is piped or given. */
export const POWERSHELL_EVAL: ReadonlySet<string> = new Set(['iex', 'invoke-expression']);

/** Programs that run code they are handed: a script file, an argument or their input. */
export function runsCode(program: string): boolean {
  return (
    SHELLS.has(program) ||
    interpreterSpec(program) !== null ||
    POWERSHELL_EVAL.has(program) ||
    program === 'source' ||
    program === '.'
  );
}

// prettier-ignore
export const DOWNLOADERS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-download', 'get', 'lynx', 'iwr',
  'irm', 'invoke-webrequest', 'invoke-restmethod', 'nc', 'ncat', 'netcat', 'socat', 'tftp', 'ftp',
  'scp', 'sftp', 'rsync',
]);

/** Programs that use the network (a secret read next to one of these may be sent away). */
// prettier-ignore
export const NETWORK_PROGRAMS: ReadonlySet<string> = new Set([
  ...DOWNLOADERS, 'ssh', 'telnet', 'git', 'gh', 'aws', 'gsutil', 'az', 'rclone', 'mail',
  'sendmail',
]);

/**
 * Programs that delete, download, change permissions, escalate, reach other hosts or stop the
 * machine: a title must name them (or the action) when the command runs them.
 */
// prettier-ignore
export const RISKY_PROGRAMS: ReadonlySet<string> = new Set([
  'rm', 'rmdir', 'shred', 'unlink', 'srm', 'wipe', 'truncate', 'wipefs', 'curl', 'wget', 'iwr',
  'irm', 'invoke-webrequest', 'invoke-restmethod', 'invoke-expression', 'iex', 'chmod', 'chown',
  'chgrp', 'chattr', 'dd', 'sudo', 'su', 'doas', 'pkexec', 'run0', 'ssh', 'scp', 'sftp', 'rsync',
  'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'tftp', 'eval', 'crontab', 'kill', 'pkill',
  'killall', 'shutdown', 'reboot', 'halt', 'poweroff', 'systemctl', 'launchctl', 'iptables', 'nft',
  'ufw', 'mount', 'umount', 'useradd', 'userdel', 'usermod', 'passwd', 'chpasswd', 'visudo',
  'fdisk', 'sfdisk', 'parted', 'diskutil', 'del', 'rd', 'remove-item', 'format',
]);

/** Commands that only change files, for "the title claims a read but the command writes". */
// prettier-ignore
export const WRITE_PROGRAMS: ReadonlySet<string> = new Set([
  'tee', 'cp', 'mv', 'install', 'ln', 'touch', 'mkdir', 'patch', 'unzip', 'set-content',
  'out-file',
]);

/**
 * Programs (empty list) and subcommands of programs that find or fetch a program by the name that
 * follows them and run it (`npx cowsay`, `npm exec x`, `uv run pytest`): the word after them, not
 * they, says what runs.
 */
// prettier-ignore
export const PACKAGE_RUNNERS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  npx: [], pnpx: [], bunx: [], uvx: [], npm: ['exec', 'x'], pnpm: ['dlx', 'exec'],
  yarn: ['dlx', 'exec'], bun: ['x', 'run'], deno: ['run', 'x'], uv: ['run'], pipx: ['run'],
  poetry: ['run'], pipenv: ['run'],
}));
