// One core per home: a second is refused naming the first, the lock dies with its holder, and the
// `gatehouse` command (the built bin/gatehouse.mjs) reads the running core over its socket.
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import {
  runCoreToExit,
  runNode,
  startCoreProcess,
  type CoreProcess,
} from '../support/core-process';

const CLI = 'bin/gatehouse.mjs';
const made: string[] = [];
const running: CoreProcess[] = [];
const fresh = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
};
const start = async (home: string, env: Record<string, string> = {}) => {
  const core = await startCoreProcess(home, env);
  running.push(core);
  return core;
};

afterEach(async () => {
  for (const core of running.splice(0)) await core.stop();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('one core per home', () => {
  it('a second headless core on the same home is refused, naming the first, which runs on', async () => {
    const home = fresh('gatehouse-one-');
    const first = await start(home);
    const second = await runCoreToExit(home);
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `Gatehouse is already running on ${home}: headless, pid ${first.pid}`,
    );
    expect(first.child.exitCode).toBeNull();
    const socket = join(home, 'gatehouse.sock');
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('the lock dies with its holder: after SIGKILL a new core starts, over the socket left behind', async () => {
    const home = fresh('gatehouse-one-');
    const first = await start(home);
    await first.stop('SIGKILL');
    expect(existsSync(join(home, 'gatehouse.sock'))).toBe(true);
    const next = await start(home);
    expect(next.pid).not.toBe(first.pid);
    expect(statSync(join(home, 'gatehouse.sock')).mode & 0o777).toBe(0o600);
  });
});

const noSandbox = bwrapMissing('control socket from the sandbox');

describe.skipIf(noSandbox)('the control socket from inside the default sandbox', () => {
  it('cannot be reached: the data folder that holds it is hidden', async () => {
    const home = fresh('gatehouse-one-');
    const folder = fresh('gatehouse-one-work-');
    const socket = join(home, 'gatehouse.sock');
    // Not an ACP agent: it tries the socket, writes what happened into its folder, and waits.
    const probe = `const fs = require('node:fs');
      const done = (what) => { fs.writeFileSync('probe.txt', what); setTimeout(() => {}, 30000); };
      require('node:net').connect(process.argv[1]).on('connect', () => done('connected')).on('error', (e) => done(e.code));`;
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: { probe: { command: process.execPath, args: ['-e', probe, socket] } },
      }),
    );
    const core = await start(home, { GATEHOUSE_TOKEN: 'probe-token-of-this-test' });
    const controller = new AbortController();
    void fetch(`${new URL(core.url).origin}/api/sessions`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer probe-token-of-this-test',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ agentId: 'probe', cwd: folder }),
      signal: controller.signal,
    }).catch(() => undefined);
    const result = join(folder, 'probe.txt');
    // Made empty before its words are written: wait for the words, not the file.
    const said = () => (existsSync(result) ? readFileSync(result, 'utf8') : '');
    await expect.poll(said, { timeout: 20_000 }).not.toBe('');
    controller.abort();
    // The data folder is hidden (EACCES, ENOENT), and no Unix socket can be opened at all (EPERM).
    expect(readFileSync(result, 'utf8')).toMatch(/^(EACCES|ENOENT|EPERM)$/);
    // From outside the sandbox the same path answers.
    expect((await runNode([CLI, 'status'], { GATEHOUSE_HOME: home })).code).toBe(0);
  });
});

describe('the gatehouse command', () => {
  beforeAll(() => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('the gatehouse command is not built: run `npx electron-vite build` first');
  });

  it('status against a running core prints it and its sessions, exits 0; once it stops, exits 3', async () => {
    const home = fresh('gatehouse-cli-');
    const folder = fresh('gatehouse-cli-work-');
    const launch = scriptedAgentLaunch({ prompts: [] });
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          s: { command: launch.command, args: launch.args, env: launch.env, sandbox: 'off' },
        },
      }),
    );
    const core = await start(home, { GATEHOUSE_TOKEN: 'cli-test-token-of-this-core' });
    const origin = new URL(core.url).origin;
    const created = await fetch(`${origin}/api/sessions`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer cli-test-token-of-this-core',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ agentId: 's', cwd: folder }),
    });
    expect(created.status).toBe(200);

    const status = await runNode([CLI, 'status'], { GATEHOUSE_HOME: home });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      `Gatehouse is running on ${home}\n  headless, pid ${core.pid}, version `,
    );
    expect(status.stdout).toContain(
      `  control socket: ${join(home, 'gatehouse.sock')}\n  http: ${origin}\n  1 session:\n    s  idle  ${folder}\n`,
    );
    expect(status.stdout).not.toContain('cli-test-token-of-this-core');

    const json = await runNode([CLI, 'status', '--json'], { GATEHOUSE_HOME: home });
    expect(JSON.parse(json.stdout)).toMatchObject({
      running: true,
      pid: core.pid,
      url: origin,
      sessions: [{ agentId: 's', cwd: folder, state: 'idle', pending: 0 }],
    });

    await core.stop();
    expect(existsSync(join(home, 'gatehouse.sock'))).toBe(false);
    expect(existsSync(join(home, 'core.json'))).toBe(false);
    const after = await runNode([CLI, 'status'], { GATEHOUSE_HOME: home });
    expect(after).toMatchObject({
      code: 3,
      stdout: `Gatehouse is not running on ${home} (nothing listens on ${join(home, 'gatehouse.sock')})\n`,
    });

    const verify = await runNode([CLI, 'audit', 'verify'], { GATEHOUSE_HOME: home });
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^audit: OK, \d+ entries verified in .*gatehouse\.db\n$/);
  });

  it('with no core on the home, status exits 3', async () => {
    const home = fresh('gatehouse-cli-');
    const status = await runNode([CLI, 'status'], { GATEHOUSE_HOME: home });
    expect(status.code).toBe(3);
    expect(status.stdout).toContain(`Gatehouse is not running on ${home}`);
  });

  it.each([[[]], [['status']], [['audit']], [['audit', 'verify']], [['acp']]])(
    '%j --help prints its usage and exits 0',
    async (args) => {
      const help = await runNode([CLI, ...args, '--help'], {});
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: gatehouse/);
    },
  );

  it('acp without an agent, or with both kinds, is a usage error (exit 2), as is an unknown command', async () => {
    const bare = await runNode([CLI, 'acp'], {});
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^gatehouse: acp: give either --agent <id> or -- <agent command>/);
    expect((await runNode([CLI, 'acp', '--agent', 'a', '--', 'x'], {})).code).toBe(2);
    const unknown = await runNode([CLI, 'vote'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^gatehouse: unknown command vote/);
  });
});
