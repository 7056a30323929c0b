// The real claude-agent-acp 0.101 (offline, against a fake Anthropic API) starts a new session in
// its mode `auto`, where a classifier rather than its client decides each permission, unless its
// settings name another. Gatehouse sets it back to `default` before the first prompt, audited, and
// refuses auto, acceptEdits and bypassPermissions from a person; back in default, its Bash tool call
// reaches a person.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareClaudeAcp, type PreparedClaudeAcp } from '../support/claude-acp';
import {
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from '../support/fake-anthropic-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

describe('the real claude-agent-acp and its modes', () => {
  let model: FakeAnthropicServer | undefined;
  let claude: PreparedClaudeAcp | undefined;
  let gh: TestGatehouse | undefined;
  let folder = '';

  afterEach(async () => {
    await gh?.close();
    await model?.close();
    claude?.cleanup();
    if (folder) rmSync(folder, { recursive: true, force: true });
    gh = model = claude = undefined;
    folder = '';
  });

  const start = async (settings: object | null) => {
    model = await startFakeAnthropicServer();
    claude = prepareClaudeAcp(model.url, settings);
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-claude-acp-work-')));
    gh = await startGatehouse({
      agents: {
        claude: {
          ...claude.agent,
          network: { allow: [`127.0.0.1:${new URL(model.url).port}`] },
          allowUnsandboxed: true,
        },
      },
    });
    const { sessionId } = await gh.api.call('createSession', { agentId: 'claude', cwd: folder });
    await gh.core.store.flush();
    const resets = await gh.core.store.events({ type: 'agent_mode_reset', sessionId });
    return { gh, sessionId, resets: resets.map((e) => e.payload) };
  };

  it.each([
    ['with no settings (its own default)', null],
    ['with defaultMode "auto" in its settings', { permissions: { defaultMode: 'auto' } }],
  ])('a new session %s starts in auto: set back to default, audited', async (_, settings) => {
    const { gh, sessionId, resets } = await start(settings);
    expect(resets).toEqual([{ via: 'mode', from: 'auto', to: 'default' }]);
    const info = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(info?.unguarded).toBeUndefined();
    const mode = info?.configOptions?.find((o) => o.id === 'mode');
    expect(mode).toMatchObject({ currentValue: 'default' });
    const refused = mode?.type === 'select' ? mode.values.filter((v) => v.refused) : [];
    expect(refused.map((v) => v.value).sort()).toEqual([
      'acceptEdits',
      'auto',
      'bypassPermissions',
    ]);
    await expect(
      gh.api.call('setSessionOption', { sessionId, configId: 'mode', value: 'auto' }),
    ).rejects.toThrow(/acting without asking/);
  });

  it('back in default, its Bash tool call reaches a person; refused, it does not run', async () => {
    const { gh, sessionId } = await start(null);
    model!.script({ name: 'Bash', input: { command: 'touch asked.txt', description: 'Touch' } });
    const turn = gh.api.call('prompt', { sessionId, text: 'touch it' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('execute');
    const reject = approval.options.find((o) => o.kind === 'reject_once');
    await gh.api.call('vote', { requestId: approval.requestId, optionId: reject!.optionId });
    await turn;
    expect(existsSync(join(folder, 'asked.txt'))).toBe(false);
  });
});
