// What programs are, for the warnings: which download, which run code they are given, which are
// risky enough that a title must mention them. Names are compared after `normalizeProgram`.

/** Basename, lower case, without `.exe`: `/usr/bin/curl` and `CURL.EXE` are both `curl`. */
export function normalizeProgram(word: string): string {
  const cut = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  const base = (cut === -1 ? word : word.slice(cut + 1)).toLowerCase();
  return base.endsWith('.exe') ? base.slice(0, -4) : base;
}

// prettier-ignore
export const SHELLS: ReadonlySet<string> = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox',
]);

/** Interpreters that run a program read from stdin or from a file argument. */
// prettier-ignore
export const INTERPRETERS: ReadonlySet<string> = new Set([
  ...SHELLS, 'python', 'python2', 'python3', 'pypy', 'pypy3', 'perl', 'ruby', 'node', 'nodejs',
  'deno', 'bun', 'php', 'lua', 'tclsh', 'osascript', 'pwsh', 'powershell', 'iex',
  'invoke-expression', 'source', '.',
]);

export function isInterpreter(program: string): boolean {
  return INTERPRETERS.has(program) || /^python\d+(\.\d+)*$/.test(program);
}

/** Options after which an interpreter's program comes from an argument, not stdin. */
export const INLINE_CODE_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  python: new Set(['-c', '-m']),
  perl: new Set(['-e', '-E']),
  ruby: new Set(['-e']),
  node: new Set(['-e', '-p', '--eval', '--print']),
  nodejs: new Set(['-e', '-p', '--eval', '--print']),
  deno: new Set(['eval']),
  bun: new Set(['-e', '--eval', '-p', '--print']),
  php: new Set(['-r']),
  lua: new Set(['-e']),
  pwsh: new Set(['-c', '-command', '-f', '-file', '-e', '-ec', '-encodedcommand']),
  powershell: new Set(['-c', '-command', '-f', '-file', '-e', '-ec', '-encodedcommand']),
};

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

/** Programs a title must mention when the command runs them (brief's list, plus kin). */
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

/** Programs whose path arguments are files they read or change (for outside_session). */
// prettier-ignore
export const FILE_PROGRAMS: ReadonlySet<string> = new Set([
  'cat', 'less', 'more', 'head', 'tail', 'cp', 'mv', 'rm', 'rmdir', 'touch', 'mkdir', 'ln',
  'chmod', 'chown', 'chgrp', 'tee', 'truncate', 'shred', 'unlink', 'install', 'ls', 'find', 'grep',
  'rg', 'sed', 'awk', 'tar', 'zip', 'unzip', 'gzip', 'gunzip', 'rsync', 'scp', 'dd', 'vi', 'vim',
  'nvim', 'nano', 'emacs', 'code', 'open', 'xdg-open', 'source', '.', 'diff', 'stat', 'file', 'wc',
  'sort', 'base64', 'xxd', 'od', 'strings', 'cut', 'tr', 'patch', 'git', 'cd', 'pushd',
]);

/** Wrappers that run the next word as a program. */
// prettier-ignore
export const WRAPPERS: ReadonlySet<string> = new Set([
  'sudo', 'doas', 'run0', 'pkexec', 'env', 'nohup', 'setsid', 'unbuffer', 'time', 'command',
  'builtin', 'exec', 'nice', 'ionice', 'timeout', 'stdbuf', 'xargs', 'chroot', 'caffeinate',
  'busybox', 'watch', 'strace', 'ltrace', 'torsocks', 'proxychains', 'proxychains4',
]);

/** Options of wrappers that take a separate value (`sudo -u root`). */
export const WRAPPER_VALUE_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set([
    '-u',
    '-g',
    '-h',
    '-p',
    '-C',
    '-D',
    '-r',
    '-t',
    '-U',
    '-T',
    '--user',
    '--group',
    '--host',
    '--prompt',
    '--chdir',
  ]),
  doas: new Set(['-u', '-C']),
  run0: new Set(['-u', '--user', '-D', '--chdir']),
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  xargs: new Set([
    '-I',
    '-n',
    '-P',
    '-L',
    '-d',
    '-E',
    '-s',
    '-a',
    '--max-args',
    '--max-procs',
    '--delimiter',
    '--arg-file',
  ]),
  exec: new Set(['-a']),
  watch: new Set(['-n', '--interval', '-d']),
  strace: new Set(['-o', '-e', '-p', '-s']),
};

/** Shell words that are syntax, not programs. */
// prettier-ignore
export const KEYWORDS: ReadonlySet<string> = new Set([
  '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '{', '}', 'coproc',
  '[[', ']]',
]);

/** Compound-command heads whose words are not a program call (`for f in …`). */
export const NON_CALLS: ReadonlySet<string> = new Set([
  'for',
  'case',
  'select',
  'function',
  'esac',
  'in',
]);
