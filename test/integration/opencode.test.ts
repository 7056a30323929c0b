// Gatehouse with the real opencode (offline, against a fake chat-completions server, in its
// sandbox): its requests travel through the pipeline, the vote comes over HTTP, opencode acts on it.
// opencode also takes approvals from a local HTTP API Gatehouse cannot close (side-doors.ts): its
// sessions start only with the agent's opt-in and are shown unguarded.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCEPTS_LOCAL_APPROVALS } from '../../src/main/core/agents/side-doors';
import type { PendingApproval } from '../../src/shared/domain';
import { startFakeChatServer, type FakeChatServer } from '../support/fake-chat-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { ensureOpencodeBinary, prepareOpencode, type PreparedOpencode } from '../support/opencode';

const OPENCODE = ensureOpencodeBinary();

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

const optionOfKind = (approval: PendingApproval, kind: string) =>
  approval.options.find((o) => o.kind === kind)!.optionId;

// A session start is most of each test's time (~15 s); a loaded machine doubles it.
describe.skipIf(!OPENCODE)('the real opencode', { timeout: 120_000 }, () => {
  let model: FakeChatServer;
  let opencode: PreparedOpencode;
  let gh: TestGatehouse;
  let folder: string;
  let doorPort: number;

  beforeAll(async () => {
    model = await startFakeChatServer();
    opencode = prepareOpencode({ baseUrl: model.baseUrl, binary: OPENCODE! });
    doorPort = await freePort();
  });
  afterAll(async () => {
    await model.close();
    opencode.cleanup();
  });
  beforeEach(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-opencode-work-')));
    const agent = {
      command: opencode.command,
      args: opencode.args,
      env: opencode.env,
      // Its model server is named in its own config file, not in a variable the sandbox reads.
      network: { allow: [`127.0.0.1:${model.port}`] },
    };
    gh = await startGatehouse({
      agents: {
        opencode: { ...agent, allowUnguarded: true },
        'opencode-plain': agent,
        outside: {
          ...agent,
          args: [...opencode.args, '--port', String(doorPort)],
          sandbox: 'off',
          allowUnguarded: true,
        },
      },
    });
  });
  afterEach(async () => {
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const session = async () =>
    (await gh.api.call('createSession', { agentId: 'opencode', cwd: folder })).sessionId;
  const shell = (sessionId: string, command: string) => {
    model.enqueue({ toolCalls: [{ name: 'bash', args: { command, description: 'run it' } }] });
    return gh.api.call('prompt', { sessionId, text: `run ${command}` });
  };
  const vote = (approval: PendingApproval, kind: string, grant?: { scope: 'session' }) =>
    gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, kind),
      ...(grant ? { grant } : {}),
    });

  it('starts only with the opt-in, and is shown unguarded: it takes approvals from other local programs', async () => {
    await expect(
      gh.api.call('createSession', { agentId: 'opencode-plain', cwd: folder }),
    ).rejects.toThrow(/allowUnguarded/);
    expect(await gh.api.call('listSessions', {})).toEqual([]);

    const sessionId = await session();
    const [info] = await gh.api.call('listSessions', {});
    expect(info).toMatchObject({ sessionId, unguarded: ACCEPTS_LOCAL_APPROVALS });
    expect(info!.sandbox.profile).toBe('workspace-write');
    const state = gh.events.find(
      (e) => e.type === 'session_state' && e.session.sessionId === sessionId,
    );
    expect(state).toMatchObject({ session: { unguarded: ACCEPTS_LOCAL_APPROVALS } });
    await gh.core.store.flush();
    expect(await gh.core.store.events({ type: 'agent_unguarded', sessionId })).toEqual([
      expect.objectContaining({ payload: { reason: ACCEPTS_LOCAL_APPROVALS } }),
    ]);
  });

  it('the door is real: outside its sandbox, any local program approves what waits for Gatehouse', async () => {
    // Why the session is marked: should opencode ever close this door, this fails and the table
    // in side-doors.ts is to be updated.
    const port = doorPort;
    const { sessionId } = await gh.api.call('createSession', { agentId: 'outside', cwd: folder });
    const turn = shell(sessionId, 'echo door > door.txt');
    const pending = await gh.nextApproval();
    const api = `http://127.0.0.1:${port}`;
    const [waiting] = (await (await fetch(`${api}/permission`)).json()) as { id: string }[];
    const reply = await fetch(`${api}/permission/${waiting!.id}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reply: 'once' }),
    });
    expect(reply.ok).toBe(true);
    await expect.poll(() => existsSync(join(folder, 'door.txt')), { timeout: 20_000 }).toBe(true);
    // Gatehouse never decided it: the request still waits for a person.
    expect((await gh.api.call('listApprovals', {})).items.map((a) => a.requestId)).toContain(
      pending.requestId,
    );
    await vote(pending, 'reject_once');
    await turn;
  });

  it('allow once runs the command; reject does not', async () => {
    const sessionId = await session();
    let turn = shell(sessionId, 'echo ran > ran.txt');
    const allowed = await gh.nextApproval();
    expect(allowed.toolCall).toMatchObject({ kind: 'execute', title: 'echo ran > ran.txt' });
    await vote(allowed, 'allow_once');
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(join(folder, 'ran.txt'), 'utf8')).toBe('ran\n');

    turn = shell(sessionId, 'echo no > refused.txt');
    const refused = await gh.nextApproval((a) => a.requestId !== allowed.requestId);
    await vote(refused, 'reject_once');
    await turn;
    expect(existsSync(join(folder, 'refused.txt'))).toBe(false);
    expect((await gh.lastDecision(sessionId)).reply).toMatchObject({ optionKind: 'reject_once' });
  });

  it('asks before a write and writes once allowed', async () => {
    const sessionId = await session();
    const target = join(folder, 'notes.md');
    model.enqueue({
      toolCalls: [{ name: 'write', args: { filePath: target, content: 'hello\n' } }],
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'write it' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    expect(existsSync(target)).toBe(false);
    await vote(approval, 'allow_once');
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('hello\n');
  });

  it('"always" becomes a Gatehouse grant, opencode is told "once"; a revoked grant asks a person again', async () => {
    const sessionId = await session();
    const command = 'echo again >> log.txt';
    let turn = shell(sessionId, command);
    const asked = await gh.nextApproval();
    await vote(asked, 'allow_always', { scope: 'session' });
    await turn;
    // opencode's own "always" would stop it asking for every `echo *` of the session.
    expect((await gh.lastDecision(sessionId)).reply).toMatchObject({ optionKind: 'allow_once' });
    const [grant] = await gh.api.call('listGrants', {});
    expect(grant!.grant).toMatchObject({ scope: 'session', sessionId, toolKind: 'execute' });

    const before = gh.events.filter((e) => e.type === 'permission_requested').length;
    await shell(sessionId, command);
    expect(readFileSync(join(folder, 'log.txt'), 'utf8')).toBe('again\nagain\n');
    expect(gh.events.filter((e) => e.type === 'permission_requested').length).toBe(before);
    expect((await gh.lastDecision(sessionId)).decider).toEqual({
      type: 'grant',
      grantId: grant!.grant.id,
    });

    await gh.api.call('revokeGrant', { grantId: grant!.grant.id });
    turn = shell(sessionId, command);
    const afterRevoke = await gh.nextApproval((a) => a.requestId !== asked.requestId);
    await vote(afterRevoke, 'reject_once');
    await turn;
    expect(readFileSync(join(folder, 'log.txt'), 'utf8')).toBe('again\nagain\n');
  });
});
