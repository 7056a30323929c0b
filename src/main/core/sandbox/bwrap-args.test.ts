import { describe, expect, it } from 'vitest';
import { bwrapArgs, type MountPlan } from './bwrap-args';

const plan: MountPlan = {
  privateTmp: { source: '/home/ada/.gatehouse/run/tmp-1', targets: ['/tmp'] },
  afterTmp: [{ source: '/tmp/home', target: '/tmp/home' }],
  writable: ['/work/proj', '/tmp/proj', '/home/ada/.gemini'],
  readOnly: [],
  protectedAnchors: ['/work/proj/.git'],
  protectedReadOnly: ['/work/proj/.vscode', '/work/proj/.git/hooks'],
  protectedState: ['/home/ada/.gemini/settings.json'],
  hiddenDirs: ['/home/ada/.ssh', '/home/ada/.gatehouse'],
  hiddenFiles: ['/work/.env'],
  unreadableFile: '/home/ada/.gatehouse/run/unreadable',
  bridgeDir: '/home/ada/.gatehouse/run/net-1',
  launchFiles: [
    {
      source: '/home/ada/.gatehouse/run/launch-1/gatehouse-asks.toml',
      target: '/home/ada/.gatehouse/run/launch-1/gatehouse-asks.toml',
    },
  ],
  shareNetwork: false,
  bindLowPorts: false,
  disableUserns: true,
  cwd: '/work/proj',
};

function pairsOf(args: string[], flag: string): string[] {
  return args.flatMap((arg, i) => (arg === flag ? [args[i + 1] ?? ''] : []));
}

describe('bwrapArgs', () => {
  const args = bwrapArgs(plan, 'gemini', ['--acp']);

  it('confines processes, capabilities and the network, and dies with its parent', () => {
    for (const flag of [
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-net',
      '--disable-userns',
    ]) {
      expect(args).toContain(flag);
    }
    expect(pairsOf(args, '--cap-drop')).toEqual(['ALL']);
    expect(args).not.toContain('--new-session');
    expect(pairsOf(args, '--proc')).toEqual(['/proc']);
  });

  it('mounts / read-only, then the writable set, then hides, then re-exposes the bridge', () => {
    const at = (flag: string, path: string) =>
      args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
    expect(at('--ro-bind', '/')).toBeGreaterThanOrEqual(0);
    expect(at('--bind', '/work/proj')).toBeGreaterThan(at('--ro-bind', '/'));
    expect(at('--tmpfs', '/home/ada/.ssh')).toBeGreaterThan(at('--bind', '/tmp/proj'));
    const unreadable = at('--ro-bind', '/home/ada/.gatehouse/run/unreadable');
    expect(args.slice(unreadable + 2, unreadable + 3)).toEqual(['/work/.env']);
    expect(at('--bind', '/home/ada/.gatehouse/run/net-1')).toBeGreaterThan(
      at('--tmpfs', '/home/ada/.gatehouse'),
    );
  });

  it('binds protected paths read-only after every writable folder, their anchors first', () => {
    const at = (flag: string, path: string) =>
      args.findIndex((arg, i) => arg === flag && args[i + 1] === path && args[i + 2] === path);
    expect(at('--bind', '/work/proj/.git')).toBeGreaterThan(at('--bind', '/tmp/proj'));
    expect(at('--ro-bind', '/work/proj/.git/hooks')).toBeGreaterThan(
      at('--bind', '/work/proj/.git'),
    );
    expect(at('--ro-bind', '/work/proj/.vscode')).toBeGreaterThan(at('--bind', '/tmp/proj'));
  });

  it('mounts the session’s own temp folder first, so that what lives under /tmp lands on top', () => {
    const at = (flag: string, path: string) =>
      args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
    const tmp = at('--bind', '/home/ada/.gatehouse/run/tmp-1');
    expect(args[tmp + 2]).toBe('/tmp');
    expect(tmp).toBeGreaterThan(at('--ro-bind', '/'));
    expect(at('--ro-bind', '/tmp/home')).toBeGreaterThan(tmp);
    expect(at('--bind', '/tmp/proj')).toBeGreaterThan(at('--ro-bind', '/tmp/home'));
  });

  it('keeps protected state files read-only on top of their writable folder', () => {
    const at = (flag: string, path: string) =>
      args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
    expect(at('--ro-bind', '/home/ada/.gemini/settings.json')).toBeGreaterThan(
      at('--bind', '/home/ada/.gemini'),
    );
  });

  it('binds this launch’s files read-only after hiding the data folder, which stays passable', () => {
    const file = '/home/ada/.gatehouse/run/launch-1/gatehouse-asks.toml';
    const i = args.findIndex((arg, j) => arg === '--ro-bind' && args[j + 1] === file);
    expect(args[i + 2]).toBe(file);
    expect(i).toBeGreaterThan(args.indexOf('/home/ada/.gatehouse'));
    const alone = bwrapArgs({ ...plan, bridgeDir: null }, 'x', []);
    const home = alone.indexOf('/home/ada/.gatehouse');
    expect(alone.slice(home - 3, home)).toEqual(['--perms', '0111', '--tmpfs']);
  });

  it('hides folders as unlistable, passable only on the way to the bridge', () => {
    const permsBefore = (path: string) => {
      const i = args.findIndex((arg, j) => arg === '--tmpfs' && args[j + 1] === path);
      return args[i - 2] === '--perms' ? args[i - 1] : null;
    };
    expect(permsBefore('/home/ada/.ssh')).toBe('0000');
    expect(permsBefore('/home/ada/.gatehouse')).toBe('0111');
    const withoutBridge = bwrapArgs({ ...plan, bridgeDir: null, launchFiles: [] }, 'x', []);
    const i = withoutBridge.indexOf('/home/ada/.gatehouse');
    expect(withoutBridge.slice(i - 3, i)).toEqual(['--perms', '0000', '--tmpfs']);
  });

  it('ends with the command after --, in the project folder', () => {
    expect(args.slice(-3)).toEqual(['--', 'gemini', '--acp']);
    expect(pairsOf(args, '--chdir')).toEqual(['/work/proj']);
  });

  it('gives the relay a low loopback port only when one is forwarded', () => {
    expect(pairsOf(bwrapArgs({ ...plan, bindLowPorts: true }, 'x', []), '--cap-add')).toEqual([
      'CAP_NET_BIND_SERVICE',
    ]);
    expect(args).not.toContain('--cap-add');
  });

  it('shares the network only when asked', () => {
    expect(bwrapArgs({ ...plan, shareNetwork: true }, 'x', [])).not.toContain('--unshare-net');
  });

  it('loads the Unix-socket filter from its descriptor, only when given one', () => {
    expect(pairsOf(bwrapArgs({ ...plan, seccompFd: 9 }, 'x', []), '--seccomp')).toEqual(['9']);
    expect(args).not.toContain('--seccomp');
  });

  it('lets the relay map root into a nested sandbox only when asked', () => {
    expect(pairsOf(bwrapArgs({ ...plan, nestingCaps: true }, 'x', []), '--cap-add')).toEqual([
      'CAP_SETFCAP',
    ]);
  });

  it('mounts allowed Unix sockets back after hiding, through a passable folder', () => {
    const socket = '/run/user/1000/docker.sock';
    const withSocket = bwrapArgs(
      { ...plan, hiddenDirs: [...plan.hiddenDirs, '/run/user/1000'], unixSockets: [socket] },
      'x',
      [],
    );
    const tmpfs = withSocket.findIndex(
      (a, i) => a === '--tmpfs' && withSocket[i + 1] === '/run/user/1000',
    );
    expect(withSocket.slice(tmpfs - 2, tmpfs)).toEqual(['--perms', '0111']);
    const bind = withSocket.findIndex((a, i) => a === '--bind' && withSocket[i + 1] === socket);
    expect(bind).toBeGreaterThan(tmpfs);
    expect(bind).toBeGreaterThan(withSocket.lastIndexOf('/home/ada/.gatehouse/run/unreadable'));
  });
});
