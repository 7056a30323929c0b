import { isInside } from '../fs/containment';

/** What bwrap mounts, with paths that exist (the caller checked), in the order it applies them. */
export interface MountPlan {
  /**
   * The session's own temp folder, mounted over each target (`/tmp`, the system's) before the rest,
   * so that what is bound later under a target (a project in /tmp) lands on top of it.
   */
  privateTmp: { source: string; targets: string[] } | null;
  /** Read-only, right after the private temp: what under a temp folder must still be seen. */
  afterTmp: { source: string; target: string }[];
  writable: string[];
  /** Read-only again although inside a writable folder (a read-only project in the temp folder). */
  readOnly: string[];
  /** Folders on the way to protected paths, bound onto themselves: mount points, not renamable. */
  protectedAnchors: string[];
  /** Files that run later, read-only although inside a writable root (protected-mounts.ts). */
  protectedReadOnly: string[];
  /** Read-only on top of the writable set: what an agent's state folder holds that its CLI obeys. */
  protectedState: string[];
  hiddenDirs: string[];
  hiddenFiles: string[];
  /** An empty file nobody may read, mounted over each hidden file. */
  unreadableFile: string;
  /** Re-exposed after hiding: the folder of this sandbox's network bridge sockets. */
  bridgeDir: string | null;
  /**
   * Bound read-only after hiding: files Gatehouse wrote for this launch in its data folder, each at
   * its own path or in the sandbox's temp folder.
   */
  launchFiles: { source: string; target: string }[];
  shareNetwork: boolean;
  /** The relay listens on a loopback port below 1024 (inside the sandbox's own network). */
  bindLowPorts: boolean;
  /** bwrap ≥ 0.8 can forbid nested user namespaces. */
  disableUserns: boolean;
  cwd: string;
  /** bwrap loads the Unix-socket seccomp filter from this descriptor (unix-sockets.ts). */
  seccompFd?: number | null;
  /**
   * The relay starts the agent in a nested bwrap: run as root, mapping uid 0 into its user
   * namespace takes CAP_SETFCAP (held by the relay; the agent inside holds none).
   */
  nestingCaps?: boolean;
  /** Allowed Unix sockets, mounted back after everything hidden. */
  unixSockets?: string[];
}

/**
 * The bwrap argument list for one agent. No `--new-session`: Gatehouse spawns agents detached
 * (setsid), so no terminal is reachable, and a new session would take the agent out of the process
 * group that Gatehouse kills.
 */
export function bwrapArgs(plan: MountPlan, command: string, args: readonly string[]): string[] {
  const out = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(plan.shareNetwork ? [] : ['--unshare-net']),
    '--unshare-user',
    ...(plan.disableUserns ? ['--disable-userns'] : []),
    // Without capabilities no mount can be undone from inside (a root agent keeps them otherwise).
    '--cap-drop',
    'ALL',
    ...(plan.bindLowPorts ? ['--cap-add', 'CAP_NET_BIND_SERVICE'] : []),
    ...(plan.nestingCaps ? ['--cap-add', 'CAP_SETFCAP'] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  if (plan.privateTmp) {
    for (const target of plan.privateTmp.targets)
      out.push('--bind', plan.privateTmp.source, target);
  }
  for (const { source, target } of plan.afterTmp) out.push('--ro-bind', source, target);
  for (const path of plan.writable) out.push('--bind', path, path);
  for (const path of plan.readOnly) out.push('--ro-bind', path, path);
  // After every writable folder (a project inside the temp folder is bound twice), anchors first.
  for (const path of plan.protectedAnchors) out.push('--bind', path, path);
  for (const path of plan.protectedReadOnly) out.push('--ro-bind', path, path);
  for (const path of plan.protectedState) out.push('--ro-bind', path, path);
  // Hidden after the writable set, so that a deny inside a writable folder still holds. A hidden
  // path refuses access (EACCES, which the agent reports and Gatehouse audits) rather than looking
  // empty; without capabilities not even root inside may pass. The folder that holds the bridge
  // sockets, this launch's files or an allowed Unix socket can be passed through, not listed.
  const sockets = plan.unixSockets ?? [];
  const passed = [
    ...(plan.bridgeDir ? [plan.bridgeDir] : []),
    ...plan.launchFiles.map((file) => file.target),
    ...sockets,
  ];
  for (const path of plan.hiddenDirs) {
    const passable = passed.some((inner) => isInside(inner, path));
    out.push('--perms', passable ? '0111' : '0000', '--tmpfs', path);
  }
  for (const path of plan.hiddenFiles) out.push('--ro-bind', plan.unreadableFile, path);
  if (plan.bridgeDir) out.push('--bind', plan.bridgeDir, plan.bridgeDir);
  for (const { source, target } of plan.launchFiles) out.push('--ro-bind', source, target);
  for (const path of sockets) out.push('--bind', path, path);
  if (plan.seccompFd != null) out.push('--seccomp', String(plan.seccompFd));
  out.push('--chdir', plan.cwd, '--', command, ...args);
  return out;
}
