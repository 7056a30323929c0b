// The proxy's methods on the control socket, tried by a hostile local process: a connection acts only
// on what it opened itself, a non-proxy client opens nothing, and a proxy that goes away leaves
// nothing waiting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openControl, type ControlClient } from '../../src/cli/control-client';
import { acquireHomeLock, type HomeLock } from '../../src/main/core/home-lock';
import { startControlServer, type ControlServer } from '../../src/main/control/server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const SANDBOX = { profile: 'off' as const, writable: [], network: 'all' };
const REQUEST = (acpSessionId: string, toolCallId: string) => ({
  sessionId: acpSessionId,
  toolCall: {
    toolCallId,
    kind: 'execute',
    title: 'rm -rf build',
    rawInput: { command: 'rm -rf build' },
  },
  options: [
    { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  ],
});

describe('the proxy methods of the control socket', () => {
  let gh: TestGatehouse;
  let lock: HomeLock;
  let control: ControlServer;
  let folder: string;
  const open: ControlClient[] = [];
  const connect = async (kind: 'proxy' | 'cli' | 'hook' = 'proxy') => {
    const { control: client } = await openControl(control.path, kind);
    open.push(client);
    return client;
  };
  const openSession = (client: ControlClient, acpSessionId = 'acp-1') =>
    client.call('session.open', {
      agent: { id: 'zed-agent', name: 'Zed agent', adHoc: true },
      editor: 'Zed',
      cwd: folder,
      acpSessionId,
      sandbox: SANDBOX,
    });

  beforeAll(async () => {
    gh = await startGatehouse({});
    lock = acquireHomeLock(gh.home, 'headless');
    control = await startControlServer({ core: gh.core, lock });
    folder = mkdtempSync(join(tmpdir(), 'gatehouse-proxy-methods-'));
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await control.close();
    lock.release();
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('only a proxy opens sessions; the session is listed as running in its editor', async () => {
    const cli = await connect('cli');
    await expect(openSession(cli)).rejects.toThrow(/only an ACP proxy/);
    const proxy = await connect();
    const { sessionId } = await openSession(proxy);
    const listed = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(listed).toMatchObject({
      via: { kind: 'editor', name: 'Zed' },
      agentId: 'zed-agent',
      state: 'idle',
    });
    // Gatehouse does not prompt or close what runs in an editor.
    await expect(gh.api.call('prompt', { sessionId, text: 'hi' })).rejects.toThrow(/runs in Zed/);
  });

  it('another connection can neither use a session nor answer a request it did not open', async () => {
    const owner = await connect();
    const { sessionId } = await openSession(owner, 'acp-owner');
    const submitted = await owner.call('permission.submit', {
      sessionId,
      request: REQUEST('acp-owner', 't1'),
    });
    expect(submitted).toMatchObject({ status: 'asking', askEditor: true });
    const requestId = (submitted as { requestId: string }).requestId;

    const intruder = await connect();
    await expect(
      intruder.call('session.update', {
        sessionId,
        update: { sessionUpdate: 'agent_message_chunk' },
      }),
    ).rejects.toThrow(/no session/);
    await expect(
      intruder.call('permission.submit', { sessionId, request: REQUEST('acp-owner', 't2') }),
    ).rejects.toThrow(/no session/);
    await expect(
      intruder.call('permission.answer', {
        requestId,
        response: { outcome: { outcome: 'selected', optionId: 'yes' } },
      }),
    ).rejects.toThrow(/no request/);
    await expect(intruder.call('permission.await', { requestId })).rejects.toThrow(
      /no waiting request/,
    );
    await expect(
      intruder.call('action.check', {
        kind: 'write',
        sessionId,
        path: join(folder, 'x'),
        sha256: 'a'.repeat(64),
        bytes: 1,
      }),
    ).rejects.toThrow(/no session/);
    // Still waiting for a person, who decides it.
    expect((await gh.api.call('listApprovals', {})).items.map((a) => a.requestId)).toContain(
      requestId,
    );
    const decided = owner.call('permission.await', { requestId }, { timeoutMs: null });
    await gh.api.call('vote', { requestId, optionId: 'no' });
    expect(await decided).toEqual({
      response: { outcome: { outcome: 'selected', optionId: 'no' } },
    });
  });

  it("updates come as notices, the agent's bytes spliced in; another connection's notices change nothing", async () => {
    const owner = await connect();
    const { sessionId } = await openSession(owner, 'acp-notices');
    const chunk = (text: string) =>
      Buffer.from(
        JSON.stringify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }),
      );
    const intruder = await connect();
    expect(
      intruder.notice('session.update', { sessionId }, { key: 'update', json: chunk('forged') }),
    ).toBe(true);
    // Answered after its notice was handled (one connection's lines are handled in order).
    await expect(intruder.call('session.cancel', { sessionId })).rejects.toThrow(/no session/);
    expect(
      owner.notice('session.update', { sessionId }, { key: 'update', json: chunk('é one') }),
    ).toBe(true);
    // A message over the core's bound is refused here; the connection and its session go on.
    const huge = Buffer.from(
      JSON.stringify({ ...REQUEST('acp-notices', 't9'), pad: 'x'.repeat(1 << 20) }),
    );
    await expect(
      owner.call('permission.submit', { sessionId }, { raw: { key: 'request', json: huge } }),
    ).rejects.toThrow(/over the 1048576 bytes/);
    expect(owner.notice('session.update', { sessionId }, { key: 'update', json: huge })).toBe(
      false,
    );
    // What the proxy could not pass is audited on its word, for its own session only.
    expect(intruder.notice('session.dropped', { sessionId, what: 'update', bytes: 1 })).toBe(true);
    owner.notice('session.dropped', { sessionId, what: 'permission_request', bytes: huge.length });
    owner.notice('session.dropped', { sessionId, what: 'update', bytes: huge.length });
    await expect(
      owner.call('session.dropped', { sessionId, what: 'bogus', bytes: 1 } as never),
    ).rejects.toThrow();
    const submitted = await owner.call(
      'permission.submit',
      { sessionId },
      { raw: { key: 'request', json: Buffer.from(JSON.stringify(REQUEST('acp-notices', 't8'))) } },
    );
    expect(submitted).toMatchObject({ status: 'asking' });
    await gh.core.store.flush();
    const droppedEvents = await gh.core.store.events({
      type: 'proxy_dropped_too_large',
      sessionId,
    });
    const payloads = droppedEvents.map((e) => e.payload as { what: string; bytes: number });
    expect(payloads.sort((a, b) => a.what.localeCompare(b.what))).toEqual([
      { what: 'permission_request', bytes: huge.length },
      { what: 'update', bytes: huge.length },
    ]);
    const said = async () => JSON.stringify(await gh.api.call('getTranscript', { sessionId }));
    await expect.poll(said).toContain('é one');
    // The missing update has its place in the transcript, by its size; the intruder's word has none.
    const { entries } = await gh.api.call('getTranscript', { sessionId });
    expect(entries.filter((e) => e.kind === 'too_large')).toEqual([
      expect.objectContaining({ kind: 'too_large', bytes: huge.length }),
    ]);
    expect(await said()).not.toContain('forged');
    expect(
      (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId),
    ).toMatchObject({ state: expect.not.stringMatching(/closed/) });
    await gh.api.call('vote', {
      requestId: (submitted as { requestId: string }).requestId,
      optionId: 'no',
    });
  });

  it('a malformed agent request is refused with its reason and audited, never queued', async () => {
    const proxy = await connect();
    const { sessionId } = await openSession(proxy, 'acp-malformed');
    await expect(
      proxy.call('permission.submit', {
        sessionId,
        request: { sessionId: 'acp-malformed', toolCall: 42 },
      }),
    ).rejects.toThrow(/malformed session\/request_permission/);
    expect(
      (await gh.core.store.events({ type: 'malformed_request' })).some(
        (e) => e.sessionId === sessionId,
      ),
    ).toBe(true);
  });

  it('a write with nothing approved is refused and audited; the approved content passes once', async () => {
    const proxy = await connect();
    const { sessionId } = await openSession(proxy, 'acp-write');
    const path = join(folder, 'plan.txt');
    const sha256 = 'b'.repeat(64);
    expect(
      await proxy.call('action.check', { kind: 'write', sessionId, path, sha256, bytes: 3 }),
    ).toMatchObject({
      allowed: false,
      message: expect.stringMatching(/not approved/),
    });
    expect(
      (await gh.core.store.events({ type: 'fs_write_refused' })).some(
        (e) => e.sessionId === sessionId,
      ),
    ).toBe(true);
    expect(
      await proxy.call('action.check', {
        kind: 'terminal',
        sessionId,
        command: '/bin/sh',
        args: ['-c', 'curl x | sh'],
        cwd: null,
      }),
    ).toMatchObject({
      allowed: false,
      message: expect.stringMatching(/Refused: running curl x \| sh/),
    });
  });

  it('when the proxy goes away its sessions end and its waiting requests are answered and audited', async () => {
    const proxy = await connect();
    const { sessionId } = await openSession(proxy, 'acp-gone');
    const submitted = await proxy.call('permission.submit', {
      sessionId,
      request: REQUEST('acp-gone', 't3'),
    });
    const requestId = (submitted as { requestId: string }).requestId;
    proxy.close();
    await expect
      .poll(async () =>
        (await gh.api.call('listApprovals', {})).items.some((a) => a.requestId === requestId),
      )
      .toBe(false);
    const detail = await gh.api.call('historyDetail', { requestId });
    expect(detail.reply).toMatchObject({ outcome: 'cancelled' });
    expect(
      (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId),
    ).toMatchObject({
      state: 'closed',
      endReason: 'agent_exit',
    });
  });
});
