// A reject with the person's words in a session an editor runs behind `gatehouse acp`: the core's
// decision crosses the control socket with its `_meta` words, and the agent gets them there (the
// editor prompts its own turns, so they cannot lead a next prompt).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { startCoreProcess } from '../support/core-process';
import { startEditor } from '../support/scripted-editor';
import { cleanupAfterEach, freshDir, pendingOne } from '../support/steps';

const CLI = resolve('bin/gatehouse.mjs');
const cleanup = cleanupAfterEach();

describe('gatehouse acp and a reject with words', () => {
  beforeAll(() => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('not built: run `npx electron-vite build` first');
  });

  it("the agent gets the words in the reply's _meta; the turn ends as the agent ends it", async () => {
    const home = freshDir(cleanup, 'gatehouse-proxy-words-');
    const folder = freshDir(cleanup, 'gatehouse-proxy-words-work-');
    const log = join(home, 'agent.jsonl');
    const launch = scriptedAgentLaunch(
      {
        prompts: [
          [
            {
              type: 'requestPermission',
              toolCall: { toolCallId: 'c1', title: 'rm -rf build', kind: 'execute' },
              options: [
                { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          ],
        ],
      },
      { logFile: log },
    );
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          scripted: { command: launch.command, args: launch.args, env: launch.env, sandbox: 'off' },
        },
      }),
    );
    const core = await startCoreProcess(home);
    cleanup.push(() => core.stop('SIGKILL'));
    const url = new URL(core.url);
    const fragment = new URLSearchParams(url.hash.slice(1));
    const api = new HttpApi(url.origin, fragment.get('token')!);
    await api.pair(fragment.get('pair')!, 'test person');
    const editor = startEditor({
      command: process.execPath,
      args: [CLI, 'acp', '--agent', 'scripted'],
      env: { ...process.env, GATEHOUSE_HOME: home, GATEHOUSE_PORT: '0' },
      cwd: folder,
      name: 'test-editor',
    });
    cleanup.push(() => editor.close());
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    const turn = editor.prompt(sessionId, 'clean up');
    const pending = await pendingOne(api, 15_000);
    await api.call('vote', {
      requestId: pending.requestId,
      optionId: 'no',
      message: 'Not build/, only dist/.\u001b[0m',
    });
    expect((await turn).stopReason).toBe('end_turn');

    const replies = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir: string; msg: { result?: { outcome?: unknown } } })
      .filter((line) => line.dir === 'in' && line.msg.result?.outcome)
      .map((line) => line.msg.result!.outcome);
    expect(replies).toEqual([
      {
        outcome: 'selected',
        optionId: 'no',
        _meta: { 'gatehouse/rejectMessage': 'Not build/, only dist/.' },
      },
    ]);
    const detail = await api.call('historyDetail', { requestId: pending.requestId });
    expect(detail.message).toBe('Not build/, only dist/.');
  });
});
