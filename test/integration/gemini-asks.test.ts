// The real Gemini CLI (offline, against a fake model server) asks Gatehouse before it reads, lists
// or runs anything. Its bundled policies would let it read, list and run `ls` on its own; the policy
// Gatehouse starts it with routes every call to its client, and Gatehouse's rules decide: the
// default read rule (as a new settings file holds it) the reads, a person the command.
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/main/core/config/settings-file';
import type { Rule } from '../../src/shared/rules';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { prepareGemini, type PreparedGemini } from '../support/gemini';

describe('the real Gemini CLI asks Gatehouse for every tool call', () => {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  let defaultRules: Rule[];
  /** Gemini CLI under a file name Gatehouse does not recognise: started without the policy. */
  let disguised: string;
  let gh: TestGatehouse;
  let folder: string;

  beforeAll(async () => {
    model = await startFakeModelServer();
    gemini = prepareGemini({ modelUrl: model.url });
    const fresh = mkdtempSync(join(tmpdir(), 'gatehouse-fresh-home-'));
    defaultRules = loadSettings(fresh).rules;
    rmSync(fresh, { recursive: true, force: true });
    disguised = mkdtempSync(join(tmpdir(), 'gatehouse-disguised-'));
    symlinkSync(gemini.args[0]!, join(disguised, 'agent.js'));
  });
  afterAll(async () => {
    await model.close();
    gemini.cleanup();
    rmSync(disguised, { recursive: true, force: true });
  });
  beforeEach(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-gemini-asks-')));
    writeFileSync(join(folder, 'notes.txt'), 'remember the milk\n');
    const env = gemini.env as Record<string, string>;
    gh = await startGatehouse({
      agents: {
        gemini: { command: gemini.command, args: gemini.args, env },
        disguised: {
          command: gemini.command,
          args: [join(disguised, 'agent.js'), '--acp'],
          env,
          // Not recognised, it gets no state folder; Gemini CLI needs its own to write.
          allowWrite: [join(gemini.home, '.gemini')],
        },
      },
      rules: defaultRules,
    });
  });
  afterEach(async () => {
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const session = async (agentId = 'gemini') =>
    (await gh.api.call('createSession', { agentId, cwd: folder })).sessionId;
  const call = (sessionId: string, name: string, args: Record<string, string>) => {
    model.enqueue({ functionCalls: [{ name, args }], finalText: 'Done.' });
    return gh.api.call('prompt', { sessionId, text: `${name}, please` });
  };
  const decisions = async (sessionId: string) => {
    await gh.core.store.flush();
    return (await gh.core.store.history({ sessionId, limit: 10 })).items;
  };
  const asked = () => gh.events.filter((e) => e.type === 'permission_requested');
  const optionOfKind = (
    approval: { options: { kind: string; optionId: string }[] },
    kind: string,
  ) => approval.options.find((o) => o.kind === kind)!.optionId;

  it('a read reaches Gatehouse and the default read rule allows it without a person, audited with the rule', async () => {
    expect(await gh.api.call('listRules', {})).toEqual([
      expect.objectContaining({ id: 'read-project', action: 'allow', path: '**' }),
    ]);
    const sessionId = await session();
    const notes = join(folder, 'notes.txt');
    await call(sessionId, 'read_file', { file_path: notes });
    expect(model.lastFunctionResponse()).toMatchObject({
      name: 'read_file',
      response: { output: 'remember the milk\n' },
    });
    expect(asked()).toEqual([]);
    expect(await decisions(sessionId)).toEqual([
      expect.objectContaining({
        toolKind: 'read',
        paths: [notes],
        decider: { type: 'rule', ruleId: 'read-project' },
        reply: expect.objectContaining({ outcome: 'selected', optionKind: 'allow_once' }),
      }),
    ]);
  });

  it('`ls` waits for a person, then runs', async () => {
    const sessionId = await session();
    const before = model.functionResponses.length;
    const turn = call(sessionId, 'run_shell_command', { command: 'ls', description: 'List' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('execute');
    expect(approval.command).toMatchObject({ command: 'ls' });
    expect(model.functionResponses.length).toBe(before);
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, 'allow_once'),
    });
    await turn;
    expect(model.lastFunctionResponse()).toMatchObject({
      name: 'run_shell_command',
      response: { output: expect.stringContaining('notes.txt') },
    });
    expect((await decisions(sessionId))[0]).toMatchObject({
      toolKind: 'execute',
      commandText: 'ls',
      decider: { type: 'person' },
    });
  });

  it('a listing names no path, so the read rule cannot vouch for it: a person is asked', async () => {
    const sessionId = await session();
    const turn = call(sessionId, 'list_directory', { dir_path: folder });
    const approval = await gh.nextApproval();
    expect(approval.toolCall).toMatchObject({ kind: 'search', locations: [] });
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, 'reject_once'),
    });
    await turn;
    expect(model.lastFunctionResponse()).toMatchObject({
      name: 'list_directory',
      response: { error: expect.stringContaining('canceled') },
    });
  });

  it('once the read rule is removed, the same read is asked of a person', async () => {
    await gh.api.call('deleteRule', { ruleId: 'read-project' });
    const sessionId = await session();
    const turn = call(sessionId, 'read_file', { file_path: join(folder, 'notes.txt') });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('read');
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, 'reject_once'),
    });
    await turn;
    expect(model.lastFunctionResponse()?.response).not.toMatchObject({
      output: 'remember the milk\n',
    });
  });

  it('without the policy (a command line Gatehouse does not recognise), Gemini reads and runs `ls` on its own', async () => {
    const sessionId = await session('disguised');
    await call(sessionId, 'read_file', { file_path: join(folder, 'notes.txt') });
    expect(model.lastFunctionResponse()?.response).toEqual({ output: 'remember the milk\n' });
    await call(sessionId, 'run_shell_command', { command: 'ls', description: 'List' });
    expect(model.lastFunctionResponse()?.response).toMatchObject({
      output: expect.stringContaining('notes.txt'),
    });
    expect(asked()).toEqual([]);
    expect(await decisions(sessionId)).toEqual([]);
  });
});
