// The control socket of a running core: what a local process (an agent that found it included) can
// and cannot do through it.
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commandNames } from '../../src/shared/contract';
import {
  CONTROL_MAX_CONNECTIONS,
  CONTROL_MAX_MESSAGE_BYTES,
  RPC_ERRORS,
} from '../../src/shared/control-protocol';
import type { PendingApproval } from '../../src/shared/domain';
import type { Core } from '../../src/main/core/core';
import { acquireHomeLock, readCoreInfo, type HomeLock } from '../../src/main/core/home-lock';
import { startControlServer, type ControlServer } from '../../src/main/control/server';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import { rawControl, type RawControl } from '../support/control-socket';

const ASK: ScriptStep = {
  type: 'requestPermission',
  announce: false,
  toolCall: {
    toolCallId: 'w1',
    kind: 'edit',
    title: 'Write secret-plan.txt',
    rawInput: { file_path: 'secret-plan.txt' },
  },
  options: [
    { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
    { optionId: 'no', name: 'No', kind: 'reject_once' },
  ],
};

const call = (id: number, method: string, params?: unknown) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`;

describe('the control socket of a running core', () => {
  let session: ScriptedSession;
  let lock: HomeLock;
  let control: ControlServer;
  let approval: PendingApproval;
  const open: RawControl[] = [];
  const connect = async () => {
    const raw = await rawControl(control.path);
    open.push(raw);
    return raw;
  };

  beforeAll(async () => {
    session = await startScriptedSession({ prompts: [[ASK]] }, { agent: { sandbox: 'off' } });
    lock = acquireHomeLock(session.gh.home, 'headless');
    control = await startControlServer({ core: session.gh.core, lock });
    void session.gh.api
      .call('prompt', { sessionId: session.sessionId, text: 'go' })
      .catch(() => undefined);
    approval = await session.gh.nextApproval();
  });
  afterEach(async () => {
    for (const raw of open.splice(0)) raw.socket.destroy();
  });
  afterAll(async () => {
    await control.close();
    lock.release();
    await session.close();
  });

  it('is a socket 0600 in the 0700 data folder, named in core.json', () => {
    const home = session.gh.home;
    expect(control.path).toBe(join(home, 'gatehouse.sock'));
    expect(lstatSync(control.path).isSocket()).toBe(true);
    expect(statSync(control.path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readCoreInfo(home)).toMatchObject({
      kind: 'headless',
      pid: process.pid,
      socket: control.path,
    });
  });

  it('status lists sessions as summaries: agent, folder, state, how many wait — no ids, no request, no token', async () => {
    const raw = await connect();
    expect(await raw.hello()).toMatchObject({
      id: 'hello',
      result: { server: 'gatehouse', kind: 'headless', pid: process.pid },
    });
    raw.send(call(1, 'status'));
    const response = await raw.next();
    expect(response).toMatchObject({
      id: 1,
      result: {
        kind: 'headless',
        pid: process.pid,
        home: session.gh.home,
        sessions: [{ agentId: 's', cwd: session.folder, state: 'prompting', pending: 1 }],
      },
    });
    const text = JSON.stringify(response);
    for (const secret of [session.sessionId, approval.requestId, session.gh.token, 'secret-plan']) {
      expect(text).not.toContain(secret);
    }
  });

  it('voting, administering or reading a session is "method not found", and nothing changes', async () => {
    const core: Core = session.gh.core;
    const settingsBefore = JSON.stringify(core.savedSettings());
    const raw = await connect();
    await raw.hello();
    const attempts: [string, unknown][] = [
      ['vote', { requestId: approval.requestId, optionId: 'yes' }],
      ['vote', { requestId: approval.requestId, outcome: 'cancelled' }],
      ['voteByLink', { requestId: approval.requestId, optionId: 'yes' }],
      ['updateSettings', { approvals: { timeoutSeconds: 1 } }],
      ['setAgentBypass', { agentId: 's', enabled: true }],
      ['approvalDetail', { requestId: approval.requestId }],
      ['listApprovals', {}],
      ['prompt', { sessionId: session.sessionId, text: 'rm -rf /' }],
      ...commandNames.map((name): [string, unknown] => [name, {}]),
    ];
    for (const [i, [method, params]] of attempts.entries()) {
      raw.send(call(i, method, params));
      expect(await raw.next()).toEqual({
        jsonrpc: '2.0',
        id: i,
        error: { code: RPC_ERRORS.methodNotFound, message: `method not found: ${method}` },
      });
    }
    expect(core.pipeline.pending.list().map((a) => a.requestId)).toEqual([approval.requestId]);
    expect(JSON.stringify(core.savedSettings())).toBe(settingsBefore);
    expect(
      session.gh.events.some(
        (e) => e.type === 'permission_resolved' || e.type === 'permission_partial_vote',
      ),
    ).toBe(false);
  });

  it('a message over 1 MiB is answered "too large" and the connection closed; the next connection works', async () => {
    const raw = await connect();
    await raw.hello();
    raw.send(Buffer.alloc(CONTROL_MAX_MESSAGE_BYTES + 1, 0x20));
    expect(await raw.next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: RPC_ERRORS.messageTooLarge,
        message: `message too large: over ${CONTROL_MAX_MESSAGE_BYTES} bytes`,
      },
    });
    await raw.closed;
    const again = await connect();
    await again.hello();
    again.send(call(1, 'status'));
    expect(await again.next()).toMatchObject({ id: 1, result: { sessions: [{ pending: 1 }] } });
  });

  it('malformed and deep messages are answered with an error; the connection goes on', async () => {
    const raw = await connect();
    raw.send('{"jsonrpc":"2.0","id":1,"method":\n');
    expect(await raw.next()).toMatchObject({ id: null, error: { code: RPC_ERRORS.parseError } });
    raw.send(
      `{"jsonrpc":"2.0","id":2,"method":"hello","params":${'['.repeat(5000)}${']'.repeat(5000)}}\n`,
    );
    expect(await raw.next()).toMatchObject({
      id: 2,
      error: {
        code: RPC_ERRORS.invalidRequest,
        message: expect.stringContaining('nested deeper than 64'),
      },
    });
    raw.send(call(3, 'status'));
    expect(await raw.next()).toMatchObject({ id: 3, error: { code: RPC_ERRORS.helloFirst } });
    expect(await raw.hello()).toMatchObject({ result: { server: 'gatehouse' } });
    expect(session.gh.core.pipeline.pending.size).toBe(1);
  });

  it(`holds at most ${CONTROL_MAX_CONNECTIONS} connections; the next is told "busy" and closed`, async () => {
    const held = await Promise.all(Array.from({ length: CONTROL_MAX_CONNECTIONS }, connect));
    await Promise.all(held.map((raw) => raw.hello()));
    const extra = await connect();
    expect(await extra.next()).toMatchObject({ id: null, error: { code: RPC_ERRORS.busy } });
    await extra.closed;
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The core sees the close a moment later; then the slot is free again.
    await expect
      .poll(async () => (await connect()).hello(), { timeout: 5000 })
      .toMatchObject({ result: { server: 'gatehouse' } });
  });

  it('the person still decides the request the socket could not touch', async () => {
    await session.gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await expect.poll(() => session.replies()).toEqual([{ outcome: 'selected', optionId: 'no' }]);
  });
});

describe('the socket file', () => {
  const fakeCore = (home: string) =>
    ({
      home,
      sessions: { list: () => [] },
      pipeline: { pending: { countFor: () => 0 } },
      editorSessions: {},
      terminalSessions: {},
    }) as unknown as Pick<
      Core,
      'home' | 'sessions' | 'pipeline' | 'editorSessions' | 'terminalSessions'
    >;
  let home: string;
  let lock: HomeLock;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-sock-'));
    lock = acquireHomeLock(home, 'headless');
  });
  afterAll(() => {
    lock.release();
    rmSync(home, { recursive: true, force: true });
  });

  it('left by a killed core is replaced by the holder of the lock; removed at close', async () => {
    const path = join(home, 'gatehouse.sock');
    const script = `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`;
    spawnSync(process.execPath, ['-e', script]);
    expect(lstatSync(path).isSocket()).toBe(true);
    const control = await startControlServer({ core: fakeCore(home), lock });
    const raw = await rawControl(control.path);
    expect(await raw.hello()).toMatchObject({ result: { server: 'gatehouse' } });
    raw.socket.destroy();
    await control.close();
    expect(() => lstatSync(path)).toThrow(/ENOENT/);
    expect(readCoreInfo(home)?.socket).toBeNull();
  });

  it('a file that is not a socket is never replaced', async () => {
    const path = join(home, 'gatehouse.sock');
    writeFileSync(path, 'keep me');
    await expect(startControlServer({ core: fakeCore(home), lock })).rejects.toThrow(
      /is not a socket/,
    );
    expect(lstatSync(path).isFile()).toBe(true);
    rmSync(path);
  });

  it('a connection that says no hello in time is closed', async () => {
    const control = await startControlServer({ core: fakeCore(home), lock, helloTimeoutMs: 100 });
    const raw = await rawControl(control.path);
    expect(await raw.next()).toMatchObject({ id: null, error: { code: RPC_ERRORS.helloFirst } });
    await raw.closed;
    await control.close();
  });
});
