// The managed policy with the real Gemini CLI (offline, a fake model server): the administrator's
// deny rules decide its write and its shell command although the agent is in Bypass and the user's
// own allow rules match, and the history names the managed rule.
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deciderWords } from '../../src/renderer/src/history/words';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { prepareGemini, type PreparedGemini } from '../support/gemini';

describe('a managed deny rule with the real Gemini CLI in Bypass', () => {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  let gh: TestGatehouse;
  let folder: string;
  let admin: string;

  beforeAll(async () => {
    model = await startFakeModelServer();
    gemini = prepareGemini({ modelUrl: model.url });
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-managed-work-')));
    admin = mkdtempSync(join(tmpdir(), 'gatehouse-admin-'));
    const managedSettingsPath = join(admin, 'managed-settings.json');
    writeFileSync(
      managedSettingsPath,
      JSON.stringify({
        rules: [
          { id: 'no-secret-edits', action: 'deny', toolKind: 'edit', path: 'secret/**' },
          { id: 'no-touch', action: 'deny', command: 'touch' },
        ],
      }),
    );
    gh = await startGatehouse(
      {
        agents: {
          gemini: {
            command: gemini.command,
            args: gemini.args,
            env: gemini.env as Record<string, string>,
            // As far as the user's settings go: Bypass, and rules that allow both.
            bypassPermissions: true,
          },
        },
        rules: [
          { id: 'edits-ok', action: 'allow', toolKind: 'edit', path: '**' },
          { id: 'touch-ok', action: 'allow', command: 'touch' },
        ],
      },
      {},
      { managedSettingsPath },
    );
  });
  afterAll(async () => {
    await gh?.close();
    await model.close();
    gemini.cleanup();
    rmSync(folder, { recursive: true, force: true });
    rmSync(admin, { recursive: true, force: true });
  });

  it('denies the write and the shell command, names the managed rule, and asks nobody', async () => {
    const { sessionId } = await gh.api.call('createSession', { agentId: 'gemini', cwd: folder });
    expect(
      (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId)?.mode,
    ).toBe('bypassPermissions');

    const secret = join(folder, 'secret', 'key.txt');
    model.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: secret, content: 'leak' } }],
    });
    await gh.api.call('prompt', { sessionId, text: 'write the key' });
    expect(existsSync(secret)).toBe(false);
    const write = await gh.lastDecision(sessionId);
    expect(write).toMatchObject({
      decider: { type: 'rule', ruleId: 'no-secret-edits', source: 'managed' },
      reply: { outcome: 'selected', optionKind: 'reject_once' },
    });
    expect(deciderWords(write.reply, write.decider)).toBe('Denied by managed rule no-secret-edits');

    model.enqueue({
      functionCalls: [
        { name: 'run_shell_command', args: { command: 'touch made-by-shell', description: 'x' } },
      ],
    });
    await gh.api.call('prompt', { sessionId, text: 'run touch' });
    expect(existsSync(join(folder, 'made-by-shell'))).toBe(false);
    const shell = await gh.lastDecision(sessionId);
    expect(shell).toMatchObject({
      decider: { type: 'rule', ruleId: 'no-touch', source: 'managed' },
      reason: expect.stringMatching(/^Managed policy: Denied by rule "no-touch"/),
    });
    // The audit detail carries the same decider.
    expect((await gh.core.store.historyDetail(shell.requestId))?.decider).toEqual({
      type: 'rule',
      ruleId: 'no-touch',
      source: 'managed',
    });
    expect(gh.events.filter((e) => e.type === 'permission_requested')).toEqual([]);

    // What the managed rules leave open, Bypass still allows: an edit elsewhere.
    const open = join(folder, 'notes.md');
    model.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: open, content: 'ok\n' } }],
    });
    await gh.api.call('prompt', { sessionId, text: 'write notes' });
    expect(existsSync(open)).toBe(true);
    expect((await gh.lastDecision(sessionId)).decider).toEqual({
      type: 'rule',
      ruleId: 'edits-ok',
    });
  });
});
