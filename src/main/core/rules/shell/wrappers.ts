/**
 * Programs that run another command (`sudo`, `xargs`, `timeout 5 …`), with the options that take
 * a value, so the command they run can be found after them.
 */

export interface WrapperSpec {
  /** Options that consume the next word (or carry it after `=`). */
  argOptions: string[];
  /** Operands between the options and the wrapped command (`timeout 5 cmd`, `chroot /x cmd`). */
  operands: number;
  /** Options introducing code, looked for among all the words (`su user -c '…'`, `flock f -c '…'`). */
  codeOptions?: string[];
  /** Look for `codeOptions` only before the wrapped command (`env -S '…'`, not `env -i grep -S x`). */
  codeBeforeCommand?: boolean;
  /** Everything after the options and operands is joined and run by a shell (`watch`, `ssh`). */
  joinsCode?: boolean;
  reason: string;
}

const AS_USER = (name: string): string => `\`${name}\` runs a command as another user`;
const WRAPPER = (name: string): string => `\`${name}\` wrapper`;
const TIMEOUT_OPTIONS = ['-s', '-k', '--signal', '--kill-after'];
const SHELL_CODE = ['-c', '--command'];

/**
 * Programs that run another command. They are opaque (a rule never allows a command because of
 * what a wrapper runs); the inner command is still extracted so deny rules see it, and named by
 * its wrappers so the warnings know which program really runs. A Map: a command named
 * `constructor` must not find Object's constructor here.
 */
// prettier-ignore
export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map(Object.entries({
  sudo: {
    argOptions: [
      '-u', '-g', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '-h', '--user', '--group', '--prompt',
      '--chdir', '--role', '--type', '--other-user', '--close-from', '--host',
    ],
    operands: 0,
    reason: AS_USER('sudo'),
  },
  doas: { argOptions: ['-u', '-C'], operands: 0, reason: AS_USER('doas') },
  run0: { argOptions: ['-u', '--user', '-D', '--chdir'], operands: 0, reason: AS_USER('run0') },
  su: {
    argOptions: ['-s', '-g', '-G', '--shell', '--group'],
    operands: 0,
    codeOptions: SHELL_CODE,
    reason: AS_USER('su'),
  },
  runuser: {
    argOptions: ['-u', '-g', '-G', '-s', '--user', '--group', '--shell'],
    operands: 0,
    codeOptions: SHELL_CODE,
    reason: AS_USER('runuser'),
  },
  pkexec: { argOptions: ['--user'], operands: 0, reason: AS_USER('pkexec') },
  xargs: {
    argOptions: [
      '-a', '-d', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '-P', '-s', '--arg-file', '--delimiter',
      '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars',
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
  nohup: { argOptions: [], operands: 0, reason: '`nohup` runs a command detached (and writes nohup.out)' },
  timeout: { argOptions: TIMEOUT_OPTIONS, operands: 1, reason: WRAPPER('timeout') },
  gtimeout: { argOptions: TIMEOUT_OPTIONS, operands: 1, reason: WRAPPER('gtimeout') },
  stdbuf: {
    argOptions: ['-i', '-o', '-e', '--input', '--output', '--error'],
    operands: 0,
    reason: WRAPPER('stdbuf'),
  },
  setsid: { argOptions: [], operands: 0, reason: WRAPPER('setsid') },
  chroot: { argOptions: ['--userspec', '--groups'], operands: 1, reason: WRAPPER('chroot') },
  unshare: { argOptions: [], operands: 0, reason: WRAPPER('unshare') },
  nsenter: {
    argOptions: ['-t', '-S', '-G', '--target', '--setuid', '--setgid'],
    operands: 0,
    reason: WRAPPER('nsenter'),
  },
  flock: {
    argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'],
    operands: 1,
    codeOptions: SHELL_CODE,
    reason: WRAPPER('flock'),
  },
  script: {
    argOptions: ['-E', '-I', '-O', '-T', '-t', '--log-in', '--log-out', '--log-timing'],
    operands: 0,
    codeOptions: SHELL_CODE,
    reason: '`script` runs a command',
  },
  strace: {
    argOptions: ['-e', '-o', '-p', '-s', '-u', '-E', '-P', '-I', '-a', '-b', '-O', '-S', '-X'],
    operands: 0,
    reason: WRAPPER('strace'),
  },
  ltrace: {
    argOptions: ['-e', '-o', '-p', '-s', '-u', '-a', '-n', '-A', '-D', '-F', '-l', '-w', '-x'],
    operands: 0,
    reason: WRAPPER('ltrace'),
  },
  taskset: { argOptions: [], operands: 1, reason: WRAPPER('taskset') },
  ionice: {
    argOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'],
    operands: 0,
    reason: WRAPPER('ionice'),
  },
  chrt: { argOptions: [], operands: 1, reason: WRAPPER('chrt') },
  busybox: { argOptions: [], operands: 0, reason: '`busybox` runs an applet' },
  'systemd-run': {
    argOptions: [
      '-p', '-E', '-u', '--unit', '--property', '--setenv', '--uid', '--gid', '--working-directory',
      '--description', '--slice',
    ],
    operands: 0,
    reason: '`systemd-run` runs a command',
  },
  caffeinate: { argOptions: ['-w', '-t'], operands: 0, reason: WRAPPER('caffeinate') },
  unbuffer: { argOptions: [], operands: 0, reason: WRAPPER('unbuffer') },
  firejail: { argOptions: [], operands: 0, reason: WRAPPER('firejail') },
  'dbus-run-session': { argOptions: [], operands: 0, reason: WRAPPER('dbus-run-session') },
  torsocks: { argOptions: ['-u', '-p', '-a', '-P'], operands: 0, reason: WRAPPER('torsocks') },
  proxychains: { argOptions: ['-f'], operands: 0, reason: WRAPPER('proxychains') },
  proxychains4: { argOptions: ['-f'], operands: 0, reason: WRAPPER('proxychains4') },
  watch: {
    argOptions: ['-n', '-d', '-g', '--interval', '--differences'],
    operands: 0,
    joinsCode: true,
    reason: '`watch` runs its arguments through `sh -c`',
  },
  ssh: {
    argOptions: [
      '-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-E', '-e', '-I', '-m', '-O',
      '-Q', '-S', '-W', '-w', '-B',
    ],
    operands: 1,
    joinsCode: true,
    reason: '`ssh` runs its arguments as shell code on another host',
  },
  // The three below are unwrapped exactly when their options are simple (see classify.ts), and
  // fall back to these entries otherwise.
  env: {
    argOptions: ['-u', '-C', '--unset', '--chdir'],
    operands: 0,
    codeOptions: ['-S', '--split-string'],
    codeBeforeCommand: true,
    reason: '`env` with options',
  },
  time: {
    argOptions: ['-o', '-f', '--output', '--format'],
    operands: 0,
    reason: '`time` with options',
  },
  nice: { argOptions: ['-n', '--adjustment'], operands: 0, reason: '`nice` with options' },
}));
