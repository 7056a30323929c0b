// "Allow for this agent" after a sandbox refusal: the folder of a refused write or the host:port of
// a refused connection joins the agent's settings. Over IPC it applies at once; over HTTP (where
// the agent itself may hold the token) it waits for the code shown where Gatehouse runs. Targets
// that would open Gatehouse's folder, /, HOME or a key folder are refused and audited. A Unix
// socket the agent may use goes the same way.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/main/core/approvals/clients';
import { dispatch } from '../../src/main/core/commands/dispatch';
import { createCore, type Core } from '../../src/main/core/core';
import { serveCore } from '../support/served-core';
import type { Settings } from '../../src/shared/settings';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ipc: Caller = {
  clientId: 'desktop',
  identityProven: true,
  paired: true,
  fromLoopback: true,
  surface: 'dialog',
  transport: 'ipc',
};

interface Running {
  core: Core;
  root: string;
  home: string;
  agentHome: string;
  terminal: string[];
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(): Promise<Running> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-allow-')));
  const home = join(root, 'data', 'gatehouse');
  const agentHome = join(root, 'user');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(agentHome, '.ssh'), { recursive: true });
  mkdirSync(join(root, 'outside', 'deep'), { recursive: true });
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ agents: { coder: { command: 'coder-acp', env: { HOME: agentHome } } } }),
  );
  const terminal: string[] = [];
  const core = await createCore({
    home,
    confirmLocally: (change) => {
      terminal.push(
        `code ${change.code}: ${change.agents.map((a) => a.widens?.join(',')).join(';')}`,
      );
      return { how: 'code' };
    },
  });
  const served = await serveCore(core, 'allow test');
  running = {
    core,
    root,
    home,
    agentHome,
    terminal,
    raw: served.raw,
    async close() {
      await served.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return running;
}

const onDisk = (gh: Running) =>
  JSON.parse(readFileSync(join(gh.home, 'settings.json'), 'utf8')) as Settings;

async function events(gh: Running, type: string) {
  await gh.core.store.flush();
  expect(await gh.core.store.verifyChain()).toMatchObject({ ok: true });
  return (await gh.core.store.events({ type })) as { payload: Json; agentId: string | null }[];
}

describe('allowing what the sandbox refused', () => {
  it('over IPC the folder of a refused write and a refused host:port apply at once, audited', async () => {
    const gh = await start();
    const write = await dispatch(
      gh.core.handlers,
      'allowSandboxTarget',
      { agentId: 'coder', kind: 'write', target: join(gh.root, 'outside', 'deep', 'f.txt') },
      ipc,
    );
    expect(write).toMatchObject({
      ok: true,
      status: 200,
      result: { agentId: 'coder', entry: join(gh.root, 'outside', 'deep') },
    });
    const connect = await dispatch(
      gh.core.handlers,
      'allowSandboxTarget',
      { agentId: 'coder', kind: 'connect', target: 'API.example.com:8443' },
      ipc,
    );
    expect(connect).toMatchObject({ ok: true, result: { entry: 'api.example.com:8443' } });
    expect(gh.core.settings.agents.coder).toMatchObject({
      allowWrite: [join(gh.root, 'outside', 'deep')],
      network: { allow: ['api.example.com:8443'] },
    });
    expect(onDisk(gh).agents.coder!.allowWrite).toEqual([join(gh.root, 'outside', 'deep')]);
    const changed = await events(gh, 'settings_changed');
    expect(changed).toHaveLength(2);
    expect(changed.map((e) => e.payload.by.transport)).toEqual(['ipc', 'ipc']);
    expect(gh.terminal).toEqual([]);
  });

  it('refuses targets that would open Gatehouse’s folder, /, HOME, a key folder or a local port, and audits each', async () => {
    const gh = await start();
    const refused: [string, 'write' | 'connect', string, RegExp][] = [
      ['gatehouse home', 'write', join(gh.home, 'settings.json'), /always keeps closed/],
      ['a folder holding it', 'write', join(gh.root, 'data', 'x'), /always keeps closed/],
      ['/', 'write', '/x', /whole file system/],
      ['HOME', 'write', join(gh.agentHome, 'notes'), /whole home folder/],
      ['a folder holding HOME', 'write', join(gh.root, 'x'), /whole home folder/],
      [
        'a key folder',
        'write',
        join(gh.agentHome, '.ssh', 'authorized_keys'),
        /always keeps closed/,
      ],
      ['a link to it', 'write', join(gh.root, 'link', 'config'), /always keeps closed/],
      ['a relative path', 'write', 'outside/f', /absolute path/],
      ['loopback', 'connect', '127.0.0.1:8080', /local address/],
      ['localhost', 'connect', 'localhost:3000', /local address/],
      ['a wildcard', 'connect', '*.example.com:443', /host:port/],
      ['no port', 'connect', 'example.com', /host:port/],
    ];
    symlinkSync(join(gh.agentHome, '.ssh'), join(gh.root, 'link'));
    for (const [what, kind, target, message] of refused) {
      const out = await dispatch(
        gh.core.handlers,
        'allowSandboxTarget',
        { agentId: 'coder', kind, target },
        ipc,
      );
      expect(out, what).toMatchObject({ ok: false, status: 400 });
      expect(JSON.stringify(out), what).toMatch(message);
    }
    const audited = await events(gh, 'sandbox_allow_refused');
    expect(audited).toHaveLength(refused.length);
    expect(audited.every((e) => e.agentId === 'coder')).toBe(true);
    expect(gh.core.settings.agents.coder).toMatchObject({ allowWrite: [] });
    expect(gh.core.settings.agents.coder!.network).toBeUndefined();
    expect(await events(gh, 'settings_changed')).toEqual([]);
  });

  it('over HTTP nothing changes until the code shown where Gatehouse runs is sent back', async () => {
    const gh = await start();
    const target = join(gh.root, 'outside', 'f.txt');
    const asked = await gh.raw('POST', '/api/agents/coder/sandbox/allow', {
      kind: 'write',
      target,
    });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      entry: join(gh.root, 'outside'),
      confirmation: { agents: ['coder'], how: 'code' },
    });
    const confirmation = asked.body.confirmation;
    expect(gh.core.settings.agents.coder!.allowWrite).toEqual([]);
    expect(onDisk(gh).agents.coder!.allowWrite ?? []).toEqual([]);
    // The person sees what the sandbox would allow, not only the agent's command.
    expect(gh.terminal).toEqual([expect.stringContaining(`write in ${join(gh.root, 'outside')}`)]);
    expect(await events(gh, 'settings_changed')).toEqual([]);

    const code = /code (\d{3}-\d{3})/.exec(gh.terminal[0]!)![1]!;
    const confirmed = await gh.raw('POST', '/api/settings/confirm', { id: confirmation.id, code });
    expect(confirmed.status).toBe(200);
    expect(gh.core.settings.agents.coder!.allowWrite).toEqual([join(gh.root, 'outside')]);
    const [changed] = await events(gh, 'settings_changed');
    expect(changed!.payload).toMatchObject({
      by: { transport: 'http' },
      confirmedBy: { transport: 'http' },
    });
  });

  it('over HTTP a settings change that loosens an agent’s sandbox waits for the code; one that tightens it applies', async () => {
    const gh = await start();
    const saved = gh.core.savedSettings();
    const withCoder = (change: Partial<Settings['agents'][string]>) => ({
      settings: { ...saved, agents: { coder: { ...saved.agents.coder!, ...change } } },
    });
    const off = await gh.raw('PUT', '/api/settings', withCoder({ sandbox: 'off' }));
    expect(off.status).toBe(202);
    expect(off.body.confirmation).toMatchObject({ agents: ['coder'], how: 'code' });
    expect(gh.core.settings.agents.coder!.sandbox).toBe('workspace-write');
    expect(gh.terminal).toEqual([expect.stringContaining('sandbox off')]);

    const network = await gh.raw('PUT', '/api/settings', withCoder({ network: 'all' }));
    expect(network.status).toBe(202);
    expect(gh.terminal[1]).toContain('connect anywhere');
    expect(gh.core.settings.agents.coder!.network).toBeUndefined();

    const tighter = await gh.raw(
      'PUT',
      '/api/settings',
      withCoder({ sandbox: 'read-only', denyRead: [join(gh.root, 'outside')], network: 'none' }),
    );
    expect(tighter.status).toBe(200);
    expect(gh.core.settings.agents.coder).toMatchObject({ sandbox: 'read-only', network: 'none' });
    expect(gh.terminal).toHaveLength(2);
  });

  it('a Unix socket: over IPC at once, over HTTP after the code; Gatehouse’s own, a file or nothing refused and audited', async () => {
    const gh = await start();
    const listening: Server[] = [];
    const listen = async (path: string) => {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(path, resolve));
      listening.push(server);
    };
    const docker = join(gh.root, 'outside', 'docker.sock');
    const ssh = join(gh.root, 'outside', 'ssh.sock');
    const own = join(gh.home, 'own.sock');
    for (const path of [docker, ssh, own]) await listen(path);
    symlinkSync(own, join(gh.root, 'own-link.sock'));
    try {
      const local = await dispatch(
        gh.core.handlers,
        'allowSandboxTarget',
        { agentId: 'coder', kind: 'socket', target: docker },
        ipc,
      );
      expect(local).toMatchObject({ ok: true, status: 200, result: { entry: docker } });
      expect(gh.core.settings.agents.coder!.allowUnixSockets).toEqual([docker]);
      expect(onDisk(gh).agents.coder!.allowUnixSockets).toEqual([docker]);
      // The sandbox reports a refused socket as a connection to its path; allowing it allows the socket.
      const reported = await dispatch(
        gh.core.handlers,
        'allowSandboxTarget',
        { agentId: 'coder', kind: 'connect', target: docker },
        ipc,
      );
      expect(reported).toMatchObject({ ok: true, result: { entry: docker } });
      expect(gh.core.settings.agents.coder!.allowUnixSockets).toEqual([docker]);
      expect(gh.core.settings.agents.coder!.network).toBeUndefined();

      const refused: [string, RegExp][] = [
        [own, /Gatehouse's own socket/],
        [join(gh.root, 'own-link.sock'), /Gatehouse's own socket/],
        [join(gh.home, 'settings.json'), /not a Unix socket/],
        [join(gh.root, 'outside', 'missing.sock'), /does not exist/],
        ['outside/docker.sock', /absolute path/],
      ];
      for (const [target, message] of refused) {
        const out = await dispatch(
          gh.core.handlers,
          'allowSandboxTarget',
          { agentId: 'coder', kind: 'socket', target },
          ipc,
        );
        expect(out, target).toMatchObject({ ok: false, status: 400 });
        expect(JSON.stringify(out), target).toMatch(message);
      }
      expect(await events(gh, 'sandbox_allow_refused')).toHaveLength(refused.length);

      const asked = await gh.raw('POST', '/api/agents/coder/sandbox/allow', {
        kind: 'socket',
        target: ssh,
      });
      expect(asked.status).toBe(202);
      expect(gh.terminal).toEqual([expect.stringContaining(`use the local socket ${ssh}`)]);
      expect(gh.core.settings.agents.coder!.allowUnixSockets).toEqual([docker]);
      const code = /code (\d{3}-\d{3})/.exec(gh.terminal[0]!)![1]!;
      const id = asked.body.confirmation.id;
      expect((await gh.raw('POST', '/api/settings/confirm', { id, code })).status).toBe(200);
      expect(gh.core.settings.agents.coder!.allowUnixSockets).toEqual([docker, ssh]);

      // The whole settings, over HTTP, likewise.
      const saved = gh.core.savedSettings();
      const more = { ...saved.agents.coder!, allowUnixSockets: [docker, ssh, own] };
      const put = await gh.raw('PUT', '/api/settings', {
        settings: { ...saved, agents: { coder: more } },
      });
      expect(put.status).toBe(202);
      expect(gh.terminal[1]).toContain(`use the local socket ${own}`);
      expect(gh.core.settings.agents.coder!.allowUnixSockets).toEqual([docker, ssh]);
    } finally {
      await Promise.all(listening.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});
