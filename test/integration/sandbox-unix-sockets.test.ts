// Local sockets from inside the sandbox, for real: listeners stand where a session bus, an
// ssh-agent, a Docker socket and a project's dev server would (the runtime folder, HOME, a folder
// of the system temp, the project), and a sandboxed probe tries each, from itself and from a child
// it starts, with each network the sandbox offers. By default it reaches none; with
// `allowUnixSockets` naming one, that one only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSandboxProfile } from '../../src/main/core/sandbox/profile';
import { wrapCommand } from '../../src/main/core/sandbox/wrap';
import { SandboxSettings, type SandboxSettingsInput } from '../../src/shared/sandbox-settings';
import { bwrapMissing } from '../support/bwrap';

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'unix-socket-probe.mjs');

interface Probe {
  reached: Record<string, string>;
  child: Record<string, string>;
  variables: string[];
  fds: string[];
  tools: Record<string, number | null>;
}

describe.skipIf(bwrapMissing('sandbox-unix-sockets') !== null)(
  'Unix sockets in the sandbox',
  () => {
    const servers: Server[] = [];
    const folders: string[] = [];
    let root: string;
    let home: string;
    let project: string;
    let gatehouseHome: string;
    let runtime: string;
    let tcpPort: number;
    const sockets = { runtime: '', home: '', temp: '', project: '' };
    const abstract = `@gatehouse-test-${process.pid}-${Date.now()}`;

    async function listen(path: string, port?: number): Promise<number> {
      const server = createServer((socket) => socket.end('hello\n'));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        if (port === undefined) server.listen(path, resolve);
        else server.listen(port, '127.0.0.1', resolve);
      });
      servers.push(server);
      const address = server.address();
      return typeof address === 'object' && address ? address.port : 0;
    }

    beforeAll(async () => {
      root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-sockets-')));
      home = join(root, 'home');
      project = join(root, 'work', 'project');
      gatehouseHome = join(root, 'gatehouse');
      for (const dir of [home, project, gatehouseHome, join(root, 'tmp')])
        mkdirSync(dir, { recursive: true });
      writeFileSync(join(gatehouseHome, 'settings.json'), '{"agents":{}}\n');
      // The user's runtime folder where there is one; a stand-in (set as XDG_RUNTIME_DIR) elsewhere.
      const real = `/run/user/${process.getuid?.() ?? 0}`;
      runtime = existsSync(real) ? real : join(root, 'runtime');
      mkdirSync(runtime, { recursive: true });
      sockets.runtime = join(runtime, `gatehouse-test-${process.pid}.sock`);
      sockets.home = join(home, '.docker', 'run', 'docker.sock');
      // A folder of the system temp that is neither the project nor the sandbox's temp folder.
      const temp = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-ssh-')));
      folders.push(temp);
      sockets.temp = join(temp, 'agent.1234');
      sockets.project = join(project, '.devserver.sock');
      mkdirSync(dirname(sockets.home), { recursive: true });
      for (const path of Object.values(sockets)) await listen(path);
      await listen(`\0${abstract.slice(1)}`);
      tcpPort = await listen('', 0);
    });

    afterAll(async () => {
      await Promise.all(
        servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
      rmSync(sockets.runtime, { force: true });
      for (const dir of [root, ...folders]) rmSync(dir, { recursive: true, force: true });
    });

    function profileOf(settings: SandboxSettingsInput) {
      const profile = resolveSandboxProfile({
        agentId: 'probe',
        command: process.execPath,
        args: [],
        settings: SandboxSettings.parse(settings),
        home,
        sessionDir: project,
        gatehouseHome,
        tmpDir: join(root, 'tmp'),
        env: {},
      });
      if (!profile) throw new Error('sandbox is off');
      return profile;
    }

    async function probe(settings: SandboxSettingsInput, targets: string[]): Promise<Probe> {
      const profile = profileOf(settings);
      const env = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        XDG_RUNTIME_DIR: runtime,
        SSH_AUTH_SOCK: sockets.temp,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${sockets.runtime}`,
        DOCKER_HOST: `unix://${sockets.home}`,
        DISPLAY: ':0',
        TMUX: `${sockets.temp},1,0`,
      };
      const wrapped = await wrapCommand(
        profile,
        process.execPath,
        [PROBE, 'agent', ...targets],
        env,
      );
      try {
        const child = spawn(wrapped.command, wrapped.args, {
          cwd: project,
          env: wrapped.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
        expect(status, stderr).toBe(0);
        return JSON.parse(stdout) as Probe;
      } finally {
        await wrapped.cleanup();
      }
    }

    const paths = (): string[] => Object.values(sockets);

    /** The usual tools start, no socket variable arrived, and the filter's descriptor was closed. */
    function expectOrdinaryStart(result: Probe, variables: string[] = []): void {
      expect(result.tools).toEqual({ git: 0, bash: 0, python: 0, node: 0 });
      expect(result.variables).toEqual(variables);
      expect(
        result.fds.filter((link) => link.endsWith('.bpf') || link.includes(gatehouseHome)),
      ).toEqual([]);
    }

    it.each([
      ['none', 'none' as const],
      ['the allow-list network and its relay', { allow: ['127.0.0.1:PORT'] }],
    ])('network %s: no socket is reached, by the agent or its child', async (_name, network) => {
      const allowList = typeof network === 'object';
      const settings = {
        network: allowList ? { allow: [`127.0.0.1:${tcpPort}`] } : network,
      } as SandboxSettingsInput;
      const tcp = `tcp:127.0.0.1:${tcpPort}`;
      const result = await probe(settings, [...paths(), ...(allowList ? [tcp] : [])]);
      for (const path of paths()) {
        expect(result.reached[path], path).toBe('EPERM');
        expect(result.child[path], path).toBe('EPERM');
      }
      // The relay itself still reaches the bridge: the allowed loopback port answers.
      if (allowList) expect(result.reached[tcp]).toBe('ok');
      expectOrdinaryStart(result);
    });

    it('network "all": not even the abstract sockets of this machine are reached', async () => {
      const result = await probe({ network: 'all' }, [...paths(), abstract]);
      for (const path of [...paths(), abstract]) expect(result.reached[path], path).toBe('EPERM');
      expectOrdinaryStart(result);
    });

    it.each([
      ['none', 'none' as const],
      ['the allow-list network', 'allow' as const],
    ])(
      'network %s: allowUnixSockets opens the named socket and no other',
      async (_name, network) => {
        const allowList = network === 'allow';
        const settings: SandboxSettingsInput = {
          network: allowList ? { allow: [`127.0.0.1:${tcpPort}`] } : 'none',
          allowUnixSockets: ['~/.docker/run/docker.sock', sockets.temp],
        };
        const tcp = `tcp:127.0.0.1:${tcpPort}`;
        const result = await probe(settings, [...paths(), ...(allowList ? [tcp] : [])]);
        expect(result.reached[sockets.home]).toBe('ok');
        expect(result.child[sockets.home]).toBe('ok');
        expect(result.reached[sockets.temp]).toBe('ok');
        for (const path of [sockets.runtime, sockets.project]) {
          expect(result.reached[path], path).not.toBe('ok');
          expect(result.child[path], path).not.toBe('ok');
        }
        if (allowList) expect(result.reached[tcp]).toBe('ok');
        // The variables that name an allowed socket pass; the others do not.
        expectOrdinaryStart(result, ['SSH_AUTH_SOCK', 'DOCKER_HOST', 'TMUX']);
      },
    );

    it('start-up cost of the filter (printed, not asserted)', async () => {
      const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home };
      const median = async (settings: SandboxSettingsInput): Promise<number> => {
        const wrapped = await wrapCommand(profileOf(settings), process.execPath, ['-e', '0'], env);
        const runs: number[] = [];
        try {
          for (let i = 0; i < 9; i++) {
            const start = performance.now();
            spawnSync(wrapped.command, wrapped.args, { cwd: project, env: wrapped.env });
            runs.push(performance.now() - start);
          }
        } finally {
          await wrapped.cleanup();
        }
        return runs.sort((a, b) => a - b)[4]!;
      };
      // A socket that does not exist turns the filter off and opens nothing: today's sandbox.
      const unfiltered = { allowUnixSockets: [join(root, 'absent.sock')] };
      const relay = { network: { allow: [`127.0.0.1:${tcpPort}`] } };
      const plain = await median({ network: 'none', ...unfiltered });
      const filtered = await median({ network: 'none' });
      const relayed = await median({ ...relay, ...unfiltered });
      const nested = await median(relay);
      const ratio = (a: number, b: number) =>
        `${a.toFixed(1)} ms vs ${b.toFixed(1)} ms (x${(a / b).toFixed(2)})`;
      console.log(
        `node -e 0 sandboxed, filter vs none: network none ${ratio(filtered, plain)}; ` +
          `allow-list with its relay (nested bwrap) ${ratio(nested, relayed)}`,
      );
    });
  },
);
