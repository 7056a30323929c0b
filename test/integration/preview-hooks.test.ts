// A terminal CLI's tool call, as its hook hands it to the core: a shell command in `tool_input` is
// the exact command (raw input), so it is previewed like an ACP agent's.
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

describe('a terminal hook’s shell command', () => {
  let folder: string;
  let gh: TestGatehouse | undefined;

  beforeEach(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-hook-work-')));
    writeFileSync(join(folder, 'old.txt'), 'old\n');
  });
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  it.each([
    ['claude-code', 'Bash'],
    ['gemini-cli', 'run_shell_command'],
  ] as const)(
    '%s %s: previewed from tool_input, denied, the folder untouched',
    async (agent, tool) => {
      gh = await startGatehouse({});
      const decided = gh.core.terminalSessions.request(
        {
          agent,
          cliSessionId: 'cli-1',
          cwd: folder,
          toolName: tool,
          toolInput: { command: 'rm old.txt; touch new.txt' },
        },
        'call-1',
      );
      const approval = await gh.nextApproval();
      expect(approval.command).toMatchObject({ source: 'rawInput' });
      expect(approval.preview?.state).toBe('running');
      const { approval: previewed } = await gh.waitForEvent('permission_previewed');
      // The CLI runs outside any sandbox: what it would write beyond the project is not seen, so the
      // preview never reads as complete (and no rule that requires one allows it).
      expect(previewed.preview).toMatchObject({
        state: 'incomplete',
        detail: expect.stringContaining('runs without a sandbox'),
      });
      expect(previewed.preview!.changes.map(({ path, change }) => [path, change])).toEqual([
        [join(folder, 'new.txt'), 'created'],
        [join(folder, 'old.txt'), 'deleted'],
      ]);
      await gh.api.call('vote', { requestId: approval.requestId, optionId: 'deny' });
      await expect(decided).resolves.toMatchObject({ decision: 'deny' });
      expect(readdirSync(folder)).toEqual(['old.txt']);
    },
  );
});
