// The hook with no core behind it, install and uninstall on settings files a person already has,
// and `hook.request` tried by a hostile local process on the control socket.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openControl, type ControlClient } from '../../src/cli/control-client';
import { startControlServer, type ControlServer } from '../../src/main/control/server';
import { acquireHomeLock, type HomeLock } from '../../src/main/core/home-lock';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import {
  type Cleanup,
  cleanupAfterEach,
  freshDir,
  gatehouse,
  GATEHOUSE_CLI,
} from '../support/hook-core';

const cleanup = cleanupAfterEach();

const EVENT = {
  session_id: 's-1',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf /' },
};

function hook(
  cli: string,
  home: string,
  stdin: string,
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [GATEHOUSE_CLI, 'hook', cli], {
    env: { ...process.env, GATEHOUSE_HOME: home },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', () => resolve({ stdout, stderr })));
}

describe('gatehouse hook with no core running', () => {
  it('tells Claude Code to ask by default, and says so on stderr', async () => {
    const home = freshDir(cleanup, 'gatehouse-hooks-none-');
    const { stdout, stderr } = await hook('claude-code', home, JSON.stringify(EVENT));
    expect(JSON.parse(stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' },
    });
    expect(stderr).toMatch(/not running.*Claude Code asks you itself/);
  });

  it('denies for Claude Code with hooks.whenUnavailable "deny", and for a settings file it cannot read', async () => {
    const home = freshDir(cleanup, 'gatehouse-hooks-none-');
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ hooks: { whenUnavailable: 'deny' } }),
    );
    const denied = await hook('claude-code', home, JSON.stringify(EVENT));
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    writeFileSync(join(home, 'settings.json'), '{ broken');
    const broken = await hook('claude-code', home, JSON.stringify(EVENT));
    expect(JSON.parse(broken.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('always denies for Gemini CLI, whose "ask" would run the tool under yolo', async () => {
    const home = freshDir(cleanup, 'gatehouse-hooks-none-');
    const { stdout } = await hook(
      'gemini',
      home,
      JSON.stringify({ ...EVENT, hook_event_name: 'BeforeTool' }),
    );
    expect(JSON.parse(stdout)).toMatchObject({ decision: 'deny' });
  });

  it('denies an event it cannot read', async () => {
    const home = freshDir(cleanup, 'gatehouse-hooks-none-');
    for (const input of ['not json', JSON.stringify({ ...EVENT, tool_input: 'rm -rf /' }), '']) {
      const { stdout } = await hook('claude-code', home, input);
      expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });
});

describe('gatehouse hook install and uninstall', () => {
  const FIXTURES = {
    'claude-code': {
      folder: '.claude',
      settings: {
        model: 'opus',
        permissions: { allow: ['Bash(npm test)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo other-pre-tool-use' }] },
          ],
          PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'echo after' }] }],
        },
      },
    },
    gemini: {
      folder: '.gemini',
      settings: {
        ui: { theme: 'dark' },
        hooks: {
          BeforeTool: [
            {
              matcher: 'write_file',
              hooks: [{ type: 'command', command: 'echo lint', name: 'lint' }],
            },
          ],
        },
      },
    },
  } as const;

  for (const [cli, fixture] of Object.entries(FIXTURES)) {
    it(`${cli}: install is idempotent, keeps a backup, and uninstall leaves the file as it was`, () => {
      const project = freshDir(cleanup, 'gatehouse-hooks-install-');
      const file = join(project, fixture.folder, 'settings.json');
      mkdirSync(join(project, fixture.folder));
      writeFileSync(file, JSON.stringify(fixture.settings, null, 4));
      expect(gatehouse(['hook', 'install', cli, '--project', project]).stdout).toMatch(
        /installed in/,
      );
      const once = readFileSync(file, 'utf8');
      expect(gatehouse(['hook', 'install', cli, '--project', project]).stdout).toMatch(
        /already installed/,
      );
      expect(readFileSync(file, 'utf8')).toBe(once);
      expect(JSON.parse(readFileSync(`${file}.gatehouse-backup`, 'utf8'))).toEqual(
        fixture.settings,
      );
      const installed = JSON.parse(once) as {
        hooks: Record<string, { hooks: { command: string }[] }[]>;
      };
      const ours = Object.values(installed.hooks)
        .flat()
        .flatMap((g) => g.hooks)
        .filter((h) => h.command.endsWith(`hook ${cli}`));
      // Absolute: this Node and this installation's bin/gatehouse.mjs.
      expect(ours).toHaveLength(1);
      expect(ours[0]!.command).toBe(`${process.execPath} ${GATEHOUSE_CLI} hook ${cli}`);
      expect(gatehouse(['hook', 'uninstall', cli, '--project', project]).stdout).toMatch(/removed/);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(fixture.settings);
      expect(gatehouse(['hook', 'uninstall', cli, '--project', project]).stdout).toMatch(
        /nothing to remove/,
      );
    });
  }

  it('--user writes under HOME; a file that is not a JSON object is left alone', () => {
    const home = freshDir(cleanup, 'gatehouse-hooks-user-');
    expect(gatehouse(['hook', 'install', 'claude-code', '--user'], { HOME: home }).status).toBe(0);
    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toMatch(
      /hook claude-code/,
    );
    expect(gatehouse(['hook', 'uninstall', 'claude-code'], { HOME: home }).status).toBe(0);
    expect(JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'))).toEqual({});
    writeFileSync(join(home, '.claude', 'settings.json'), '[1, 2]');
    expect(gatehouse(['hook', 'install', 'claude-code'], { HOME: home }).status).toBe(1);
    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toBe('[1, 2]');
  });
});

describe('hook.request on the control socket, tried by a hostile local process', () => {
  let gh: TestGatehouse;
  let lock: HomeLock;
  let control: ControlServer;
  let folder: string;
  const folders: Cleanup = [];
  const open: ControlClient[] = [];
  const connect = async (kind: 'proxy' | 'cli' | 'hook' = 'hook') => {
    const { control: client } = await openControl(control.path, kind);
    open.push(client);
    return client;
  };
  const request = (cliSessionId: string, command = 'rm -rf build') => ({
    agent: 'claude-code' as const,
    cliSessionId,
    cwd: folder,
    toolName: 'Bash',
    toolInput: { command },
  });

  beforeAll(async () => {
    gh = await startGatehouse({});
    lock = acquireHomeLock(gh.home, 'headless');
    control = await startControlServer({ core: gh.core, lock });
    folder = freshDir(folders, 'gatehouse-hooks-hostile-');
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await control.close();
    lock.release();
    await gh.close();
    for (const step of folders) await step();
  });

  it('only a hook asks; a request names a CLI session, never reaches another session or votes', async () => {
    const cli = await connect('cli');
    await expect(cli.call('hook.request', request('a'))).rejects.toThrow(/only a hook/);
    const first = await connect();
    void first.call('hook.request', request('victim'), { timeoutMs: null }).catch(() => undefined);
    await expect.poll(() => gh.core.pipeline.pending.list().length).toBe(1);
    const [victim] = gh.core.pipeline.pending.list();
    // A second hook naming the victim's Gatehouse ids gets a session of its own, not the victim's.
    const hostile = await connect();
    void hostile
      .call('hook.request', request(victim!.sessionId), { timeoutMs: null })
      .catch(() => undefined);
    await expect.poll(() => gh.core.pipeline.pending.list().length).toBe(2);
    const sessions = new Set(gh.core.pipeline.pending.list().map((p) => p.sessionId));
    expect(sessions.size).toBe(2);
    // Nothing on the socket votes or reads: the proxy's methods refuse a hook.
    await expect(
      hostile.call('permission.answer', {
        requestId: victim!.requestId,
        response: { outcome: { outcome: 'selected', optionId: 'allow' } },
      }),
    ).rejects.toThrow(/only an ACP proxy/);
    await expect(
      hostile.call('permission.await', { requestId: victim!.requestId }),
    ).rejects.toThrow(/only an ACP proxy/);
    expect(gh.core.pipeline.pending.get(victim!.requestId)).toBeDefined();
    // One call at a time per connection.
    await expect(hostile.call('hook.request', request('other'))).rejects.toThrow(
      /one tool call at a time/,
    );
  });

  it('a hook that goes away ends its request; malformed and oversized requests are refused', async () => {
    const hook = await connect();
    void hook.call('hook.request', request('gone'), { timeoutMs: null }).catch(() => undefined);
    await expect.poll(() => gh.core.pipeline.pending.list().length).toBeGreaterThan(0);
    for (const client of open.splice(0)) client.close();
    await expect.poll(() => gh.core.pipeline.pending.list().length).toBe(0);
    const next = await connect();
    await expect(
      next.call('hook.request', { ...request('x'), agent: 'codex' } as never),
    ).rejects.toThrow(/invalid params/);
    await expect(next.call('hook.request', { ...request('x'), cwd: 'relative' })).rejects.toThrow(
      /absolute/,
    );
    await expect(
      next.call('hook.request', { ...request('x'), cliSessionId: 'x'.repeat(300) }),
    ).rejects.toThrow(/invalid params/);
    await expect(next.call('hook.request', { ...request('x'), extra: 1 } as never)).rejects.toThrow(
      /invalid params/,
    );
  });
});
