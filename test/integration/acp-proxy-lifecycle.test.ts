// `gatehouse acp` when things die or are missing: the core killed mid-request, the proxy killed, no
// core running (started in the background, or refused with auto-start off), two editors at once.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCoreInfo } from '../../src/main/core/home-lock';
import { CORE_NODE_FLAGS } from '../../src/main/core/node-flags';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { startCoreProcess } from '../support/core-process';
import { startEditor, type ScriptedEditor } from '../support/scripted-editor';
import { cleanupAfterEach, freshDir, pendingOne } from '../support/steps';

const CLI = resolve('bin/gatehouse.mjs');
const TOKEN = 'proxy-lifecycle-token';
const noSandbox = bwrapMissing('gatehouse acp in the sandbox');
const cleanup = cleanupAfterEach();

const fresh = (prefix: string): string => freshDir(cleanup, prefix);

const ASK = (id: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: {
    toolCallId: id,
    title: `make ${id}`,
    kind: 'execute',
    rawInput: { command: `make ${id}` },
  },
  options: [
    { optionId: 'go', name: 'Allow', kind: 'allow_once' },
    { optionId: 'stop', name: 'Reject', kind: 'reject_once' },
  ],
  onAllow: [{ type: 'text', text: `ran ${id}` }],
  onReject: [{ type: 'text', text: `refused ${id}` }],
});

/** A home whose agent `scripted` carries a marker, so its processes can be found. */
function home(options: { sandbox?: string; proxy?: Record<string, unknown> } = {}) {
  const dir = fresh('gatehouse-proxy-life-');
  const folder = fresh('gatehouse-proxy-life-work-');
  const marker = randomUUID();
  const launch = scriptedAgentLaunch({ prompts: [[ASK('one')], [ASK('two')]] });
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify({
      agents: {
        scripted: {
          command: launch.command,
          args: launch.args,
          env: { ...launch.env, PROXY_TEST_MARKER: marker },
          sandbox: options.sandbox ?? 'off',
        },
      },
      ...(options.proxy ? { proxy: options.proxy } : {}),
    }),
  );
  // Whatever core the proxy starts in the background is stopped at the end.
  cleanup.push(() => {
    const info = readCoreInfo(dir);
    if (info) {
      try {
        process.kill(info.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  });
  return { dir, folder, marker };
}

/** Processes whose environment holds the marker. */
function withMarker(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(
          `PROXY_TEST_MARKER=${marker}`,
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

function editorFor(dir: string, folder: string): ScriptedEditor {
  const editor = startEditor({
    command: process.execPath,
    args: [CLI, 'acp', '--agent', 'scripted'],
    env: { ...process.env, GATEHOUSE_HOME: dir, GATEHOUSE_PORT: '0', GATEHOUSE_TOKEN: TOKEN },
    cwd: folder,
    name: 'life-editor',
  });
  cleanup.push(() => editor.close());
  return editor;
}

const said = (editor: ScriptedEditor) =>
  editor.updates
    .map((u) => u.update)
    .flatMap((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text'
        ? [u.content.text]
        : [],
    );

/** The API of the core that runs on the home now (core.json names it), other than `not`. */
async function apiOf(dir: string, not?: number): Promise<HttpApi> {
  const running = () => {
    const info = readCoreInfo(dir);
    return info?.url && info.pid !== not ? info.url : null;
  };
  await expect.poll(running, { timeout: 30_000 }).not.toBeNull();
  return new HttpApi(running()!, TOKEN);
}

const pending = (api: HttpApi) => pendingOne(api, 20_000);

describe('gatehouse acp when a side goes away', () => {
  beforeAll(() => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('not built: run `npx electron-vite build` first');
  });

  it('the core killed mid-request: the agent hears its reject option at once; the next request starts a core', async () => {
    const { dir, folder } = home();
    const core = await startCoreProcess(dir, { GATEHOUSE_TOKEN: TOKEN });
    cleanup.push(() => core.stop('SIGKILL'));
    const editor = editorFor(dir, folder);
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    const first = editor.prompt(sessionId, 'one');
    const shown = await editor.nextShown();
    await pending(await apiOf(dir));

    await core.stop('SIGKILL');
    // At once: from the lost connection, not at the request's timeout (300 s); the bound only
    // keeps a loaded machine from failing the test.
    await expect
      .poll(() => said(editor), { timeout: 20_000, interval: 50 })
      .toContain('refused one');
    expect(shown.signal.aborted).toBe(true);
    await first;

    // The proxy connects again, to a core it starts in the background.
    const second = editor.prompt(sessionId, 'two');
    const api = await apiOf(dir, core.pid);
    const request = await pending(api);
    await api.call('vote', { requestId: request.requestId, optionId: 'go' });
    await second;
    expect(said(editor)).toContain('ran two');
    // The core it started runs as `npm run headless` runs one, with the core's node flags.
    const started = readCoreInfo(dir)!;
    expect(started.pid).not.toBe(core.pid);
    const argv = readFileSync(`/proc/${started.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toEqual(expect.arrayContaining([...CORE_NODE_FLAGS]));
  });

  it('with auto-start off and no core, every request is refused and stderr says why', async () => {
    const { dir, folder } = home({ proxy: { autoStart: false } });
    const editor = editorFor(dir, folder);
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    await editor.prompt(sessionId, 'one');
    expect(said(editor)).toContain('refused one');
    expect(editor.shown).toEqual([]);
    expect(editor.stderr()).toMatch(/no Gatehouse core is running and proxy.autoStart is off/);
    expect(readCoreInfo(dir)).toBeNull();
  });

  it.each(['off', 'workspace-write'])(
    'the proxy killed (sandbox %s): no agent process is left, nothing pending',
    async (sandbox) => {
      if (sandbox !== 'off' && noSandbox) return;
      const { dir, folder, marker } = home({ sandbox });
      const core = await startCoreProcess(dir, { GATEHOUSE_TOKEN: TOKEN });
      cleanup.push(() => core.stop('SIGKILL'));
      const editor = editorFor(dir, folder);
      await editor.initialize();
      const sessionId = await editor.newSession(folder);
      void editor.prompt(sessionId, 'one').catch(() => undefined);
      const api = await apiOf(dir);
      await pending(api);
      expect(withMarker(marker).length).toBeGreaterThan(0);

      editor.child.kill('SIGKILL');
      await expect.poll(() => withMarker(marker), { timeout: 5000 }).toEqual([]);
      await expect.poll(async () => (await api.call('listApprovals', {})).items).toEqual([]);
      const editorSessions = (await api.call('listSessions', {})).filter(
        (s) => s.via?.kind === 'editor',
      );
      expect(editorSessions.map((s) => s.state)).toEqual(['closed']);
    },
  );

  it('two editors with two proxies on one core: each request is its own, each decided apart', async () => {
    const { dir, folder } = home();
    const core = await startCoreProcess(dir, { GATEHOUSE_TOKEN: TOKEN });
    cleanup.push(() => core.stop('SIGKILL'));
    const api = await apiOf(dir);
    const editors = [editorFor(dir, folder), editorFor(dir, folder)];
    for (const editor of editors) {
      await editor.initialize();
      void editor.prompt(await editor.newSession(folder), 'one');
    }
    await expect
      .poll(async () => (await api.call('listApprovals', {})).items.length, { timeout: 20_000 })
      .toBe(2);
    const [a, b] = (await api.call('listApprovals', {})).items;
    expect(a!.sessionId).not.toBe(b!.sessionId);
    await api.call('vote', { requestId: a!.requestId, optionId: 'go' });
    await api.call('vote', { requestId: b!.requestId, optionId: 'stop' });
    const outcome = (editor: ScriptedEditor) =>
      said(editor).filter((text) => text === 'ran one' || text === 'refused one');
    await expect.poll(() => editors.flatMap(outcome).sort()).toEqual(['ran one', 'refused one']);
    expect(editors.map((editor) => outcome(editor).length)).toEqual([1, 1]);
  });
});
