// The real Gemini CLI (offline, against a fake model server) in its sandbox: a person allows a shell
// command that writes outside the project; the command runs, inside the sandbox, and the write
// outside does not happen. Gemini keeps the shell's output to itself (its tool call update carries
// no content, nothing reaches stderr), so this refusal is seen by the model only, not reported.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { prepareGemini, type PreparedGemini } from '../support/gemini';
import { bwrapMissing } from '../support/bwrap';

describe.skipIf(bwrapMissing('sandbox-gemini') !== null)('Gemini CLI in its sandbox', () => {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  let gh: TestGatehouse;
  let folder: string;
  let outside: string;

  beforeAll(async () => {
    model = await startFakeModelServer();
    gemini = prepareGemini({ modelUrl: model.url });
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-gemini-sandboxed-')));
    // Outside the temp folder, which a sandboxed agent may write.
    outside = realpathSync(mkdtempSync('/var/tmp/gatehouse-gemini-outside-'));
    gh = await startGatehouse({
      agents: {
        gemini: {
          name: 'Gemini CLI',
          command: gemini.command,
          args: gemini.args,
          env: gemini.env as Record<string, string>,
        },
      },
    });
  });
  afterAll(async () => {
    await gh?.close();
    await model?.close();
    gemini?.cleanup();
    for (const dir of [folder, outside]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('an allowed shell command that writes outside the project runs, and the file outside is not written', async () => {
    const { sessionId } = await gh.api.call('createSession', { agentId: 'gemini', cwd: folder });
    const [info] = await gh.api.call('listSessions', {});
    expect(info!.sandbox.profile).toBe('workspace-write');
    const target = join(outside, 'f');
    const command = `echo x > ${target}; echo inside > ${join(folder, 'inside.txt')}`;
    model.enqueue({
      functionCalls: [{ name: 'run_shell_command', args: { command, description: 'write' } }],
      finalText: 'Done.',
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'run it' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('execute');
    const allow = approval.options.find((o) => o.kind === 'allow_once')!;
    await gh.api.call('vote', { requestId: approval.requestId, optionId: allow.optionId });
    expect(await turn).toEqual({ stopReason: 'end_turn' });

    // The command ran (its write inside the project landed) but the sandbox kept the one outside.
    expect(existsSync(join(folder, 'inside.txt'))).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(JSON.stringify(model.lastFunctionResponse()?.response)).toMatch(/Read-only file system/);
  });
});
