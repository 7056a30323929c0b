import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unixSocketFilterBytes } from './seccomp-filter';
import {
  boundSocketPaths,
  dropSocketVariables,
  nestedSandboxArgs,
  planUnixSockets,
  withFilterOpen,
  writeUnixSocketFilter,
} from './unix-sockets';

let root: string;
let server: Server;
let socket: string;
let inGatehouse: Server;
let gatehouseSocket: string;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-unix-')));
  mkdirSync(join(root, 'gatehouse', 'run'), { recursive: true });
  socket = join(root, 'agent.sock');
  gatehouseSocket = join(root, 'gatehouse', 'control.sock');
  server = createServer();
  inGatehouse = createServer();
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  await new Promise<void>((resolve) => inGatehouse.listen(gatehouseSocket, resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => inGatehouse.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('socket variables', () => {
  it('drops every one of them, but for one that names an allowed socket', () => {
    const env: NodeJS.ProcessEnv = {
      PATH: '/usr/bin',
      SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      DOCKER_HOST: 'unix:///run/user/1000/docker.sock',
      XDG_RUNTIME_DIR: '/run/user/1000',
      DISPLAY: ':0',
      WAYLAND_DISPLAY: 'wayland-0',
      TMUX: '/tmp/tmux-1000/default,1,0',
    };
    dropSocketVariables(env, ['/run/user/1000/docker.sock', '/tmp/tmux-1000/default']);
    expect(env).toEqual({
      PATH: '/usr/bin',
      DOCKER_HOST: 'unix:///run/user/1000/docker.sock',
      TMUX: '/tmp/tmux-1000/default,1,0',
    });
  });
});

describe('the filter file and how it is passed', () => {
  it('is written once, read-only, named by its content', () => {
    const runDir = join(root, 'gatehouse', 'run');
    const path = writeUnixSocketFilter(runDir);
    expect(readFileSync(path).equals(unixSocketFilterBytes())).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o400);
    expect(writeUnixSocketFilter(runDir)).toBe(path);
  });

  it('is opened as descriptor 9 by a shell that then becomes bwrap', () => {
    const { command, args } = withFilterOpen('/g/run/f.bpf', '/usr/bin/bwrap', ['--seccomp', '9']);
    expect(command).toBe('/bin/sh');
    expect(args.slice(2)).toEqual(['sh', '/g/run/f.bpf', '/usr/bin/bwrap', '--seccomp', '9']);
    expect(args[1]).toContain('exec 9<"$1"');
  });

  it('the nested sandbox adds the filter and a user namespace, and nothing else', () => {
    const args = nestedSandboxArgs('/usr/bin/bwrap', true);
    // The command line as it would be typed, word by word.
    const typed = '/usr/bin/bwrap --unshare-user --disable-userns --die-with-parent --cap-drop ALL';
    expect(args).toEqual(`${typed} --dev-bind / / --seccomp 9 --`.split(' '));
    expect(nestedSandboxArgs('/usr/bin/bwrap', false)).not.toContain('--disable-userns');
  });
});

describe('bound sockets', () => {
  it('reads the paths of /proc/net/unix, keeping those that are sockets', async () => {
    const listing = join(root, 'unix');
    writeFileSync(
      listing,
      [
        'Num       RefCount Protocol Flags    Type St Inode Path',
        `0000000000000000: 00000002 00000000 00010000 0001 01 100 ${socket}`,
        `0000000000000000: 00000003 00000000 00000000 0001 03 101 ${socket}`,
        '0000000000000000: 00000002 00000000 00010000 0001 01 102 @/tmp/.X11-unix/X0',
        '0000000000000000: 00000002 00000000 00000000 0001 03 103',
        `0000000000000000: 00000002 00000000 00010000 0001 01 104 ${join(root, 'gone.sock')}`,
        `0000000000000000: 00000002 00000000 00010000 0001 01 105 ${listing}`,
      ].join('\n'),
    );
    expect(await boundSocketPaths(listing)).toEqual([socket]);
    expect(await boundSocketPaths(join(root, 'absent'))).toEqual([]);
  });

  it('with none allowed, the filter; with some, those shown and every other bound one hidden', async () => {
    const runDir = join(root, 'gatehouse', 'run');
    const gatehouse = join(root, 'gatehouse');
    const closed = await planUnixSockets([], runDir, gatehouse);
    expect(closed.filterFile).toMatch(/unix-sockets-[0-9a-f]{16}\.bpf$/);
    expect(closed.shown).toEqual([]);

    const listing = join(root, 'unix-2');
    const other = join(root, 'other.sock');
    const otherServer = createServer();
    await new Promise<void>((resolve) => otherServer.listen(other, resolve));
    try {
      writeFileSync(
        listing,
        [
          'Num RefCount Protocol Flags Type St Inode Path',
          ...[socket, other, gatehouseSocket].map(
            (path, i) => `0: 00000002 00000000 00010000 0001 01 ${i} ${path}`,
          ),
        ].join('\n'),
      );
      const open = await planUnixSockets(
        [socket, gatehouseSocket, join(root, 'unix-2'), join(root, 'missing.sock')],
        runDir,
        gatehouse,
        listing,
      );
      // Gatehouse's own sockets, files and absent paths open nothing; its folder stays hidden whole.
      expect(open).toEqual({ filterFile: null, shown: [socket], hidden: [other] });
    } finally {
      await new Promise((resolve) => otherServer.close(resolve));
    }
  });
});
