// The first process of a scratch layer's namespaces, as a shell script: it bounds the number of
// processes, mounts a size-bounded tmpfs for every upper folder (the disk bound is the kernel's,
// not a poll), covers each layer's folder with an overlay whose upper lives there, and starts the
// sandbox. It then stays, holding the mounts, until Gatehouse has read what the command left and
// closes its stdin: the tmpfs and everything on it go with the namespace.
//
// Its descriptors: stdin is the line from Gatehouse (a line: stop the command now; end of input:
// done, leave), fd 3 its reports (`fail <why>` before the command starts, `start` as it starts,
// `exit <code>` after).
import { join } from 'node:path';

/** The script's exit when it could not build the layer: the command never ran. */
export const SETUP_FAILED = 97;

/** Files and folders the layer may hold: a million empty files would cost no disk, only listing. */
const MAX_INODES = 262_144;

export interface ScratchScriptInput {
  /** The host folder the tmpfs is mounted on (outside every layer), empty on the host. */
  scratch: string;
  /** Folders covered by an overlay, parents before what they hold. */
  layers: readonly string[];
  diskBytes: number;
  /** The namespace's pid_max: no more processes than this at once. */
  pidMax: number;
  /**
   * Whether the user is root: RLIMIT_NPROC never binds root (the kernel skips it for the initial
   * user), so without a namespace's own pid_max (Linux 6.14) there is no process bound at all.
   */
  root: boolean;
  /** prlimit's bounds and the sandbox's command line (bwrap …). */
  limits: readonly string[];
  argv: readonly string[];
  /** The Unix-socket filter, opened as descriptor 9 for bwrap. */
  filterFile: string;
}

const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** Characters overlayfs's options cannot carry in a path. */
export function overlaySafe(path: string): boolean {
  return !/[,:\\\n]/.test(path);
}

export const upperOf = (scratch: string, layer: number): string => join(scratch, `u${layer}`);
export const tmpOf = (scratch: string): string => join(scratch, 'tmp');

export function scratchScript(input: ScratchScriptInput): string {
  const s = input.scratch;
  const lines = [
    `fail() { echo "fail $1" >&3; exit ${SETUP_FAILED}; }`,
    `run() { out=$("$@" 2>&1) || fail "$* : $out"; }`,
    input.root
      ? `echo ${input.pidMax} > /proc/sys/kernel/pid_max 2>/dev/null || fail 'no bound on processes here: this kernel keeps pid_max for the whole machine (Linux 6.14 has one per namespace) and RLIMIT_NPROC does not bind root'`
      : `echo ${input.pidMax} > /proc/sys/kernel/pid_max 2>/dev/null || true`,
    `run mount -t tmpfs -o size=${input.diskBytes},nr_inodes=${MAX_INODES},mode=0700 gatehouse-scratch ${quote(s)}`,
    `run mkdir ${quote(tmpOf(s))}`,
  ];
  input.layers.forEach((target, i) => {
    const [lower, upper, work] = [`l${i}`, `u${i}`, `w${i}`].map((name) => join(s, name));
    lines.push(
      `run mkdir ${quote(lower!)} ${quote(upper!)} ${quote(work!)}`,
      // The lower is the real folder taken before any overlay covers it: no overlay stacked on
      // another (HOME's) when a root lies inside HOME.
      `run mount --bind ${quote(target)} ${quote(lower!)}`,
    );
  });
  input.layers.forEach((target, i) => {
    const [lower, upper, work] = [`l${i}`, `u${i}`, `w${i}`].map((name) => join(s, name));
    // userxattr: the overlay's own marks as user.* attributes, which a user namespace may write.
    lines.push(
      `run mount -t overlay overlay -o userxattr,lowerdir=${lower},upperdir=${upper},workdir=${work} ${quote(target)}`,
    );
  });
  const command = [...input.limits, ...input.argv].map(quote).join(' ');
  lines.push(
    'exec 4<&0',
    'echo start >&3',
    `${command} 9<${quote(input.filterFile)} </dev/null 3>&- 4<&- &`,
    'cmd=$!',
    // Gatehouse's line (or its end, should it die) stops the sandbox; its first process dies with
    // it (--die-with-parent) and every process of its PID namespace with that one.
    '(read _ <&4; kill -KILL $cmd 2>/dev/null) 3>&- </dev/null &',
    'killer=$!',
    'wait $cmd',
    'echo "exit $?" >&3',
    'wait $killer',
    // Until Gatehouse has read the layer: the mounts live as long as this process.
    'cat <&4 >/dev/null',
  );
  return lines.join('\n');
}
