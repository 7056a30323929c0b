// An editor runs the real Gemini CLI (offline, against a fake model server) through
// `gatehouse acp -- <gemini --acp>`: the agent's request waits in Gatehouse and in the editor at
// once, and whichever answers first is what the agent does.
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server';
import { prepareGemini, type PreparedGemini } from '../support/gemini';
import { startEditor, type ScriptedEditor } from '../support/scripted-editor';
import { cleanupAfterEach } from '../support/steps';

const CLI = resolve('bin/gatehouse.mjs');
const TOKEN = 'proxy-gemini-token';

describe('gatehouse acp with the real Gemini CLI', () => {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  let home: string;
  let core: CoreProcess;
  let api: HttpApi;
  const cleanup = cleanupAfterEach();

  beforeAll(async () => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('not built: run `npx electron-vite build` first');
    model = await startFakeModelServer();
    gemini = prepareGemini({ modelUrl: model.url });
    home = mkdtempSync(join(tmpdir(), 'gatehouse-proxy-gemini-'));
    // One file is off limits by rule: a request to write it is decided with nobody asked.
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        rules: [{ id: 'keep-denied', action: 'deny', toolKind: 'edit', path: '**/denied.txt' }],
      }),
    );
    core = await startCoreProcess(home, { GATEHOUSE_TOKEN: TOKEN });
    api = new HttpApi(new URL(core.url).origin, TOKEN);
  });
  afterAll(async () => {
    await core.stop();
    await model.close();
    gemini.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  /** An editor in a fresh folder with Gemini behind the proxy, a session open, a write asked for. */
  async function startWriting(file: string) {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-proxy-gemini-work-')));
    cleanup.push(() => rmSync(folder, { recursive: true, force: true }));
    const editor: ScriptedEditor = startEditor({
      command: process.execPath,
      args: [CLI, 'acp', '--name', 'Gemini CLI', '--', gemini.command, ...gemini.args],
      env: { ...process.env, ...gemini.env, GATEHOUSE_HOME: home },
      cwd: folder,
      name: 'gemini-editor',
    });
    cleanup.push(async () => {
      await editor.close();
      if (process.env.DEBUG_PROXY) process.stderr.write(editor.stderr());
    });
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    const path = join(folder, file);
    // An existing file: an editor advertises reads, and Gemini then cannot create a new file
    // through its client (it reads first and takes the failed read for an error).
    writeFileSync(path, 'old\n');
    model.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: path, content: 'hello\n' } }],
      finalText: 'Done.',
    });
    const turn = editor.prompt(sessionId, `write ${file}`);
    return { editor, path, turn };
  }

  async function askToWrite(file: string) {
    const { editor, path, turn } = await startWriting(file);
    const shown = await editor.nextShown(60_000);
    await expect
      .poll(async () => (await api.call('listApprovals', {})).items.length, { timeout: 20_000 })
      .toBe(1);
    const [pending] = (await api.call('listApprovals', {})).items;
    return { editor, path, turn, shown, pending: pending! };
  }

  it('a vote in Gatehouse: the agent writes, the editor is told to stop asking', async () => {
    const { path, turn, shown, pending } = await askToWrite('from-gatehouse.txt');
    expect(pending.kind).toBe('edit');
    const allow = pending.options.find((o) => o.kind === 'allow_once')!;
    await api.call('vote', { requestId: pending.requestId, optionId: allow.optionId });
    await turn;
    expect(readFileSync(path, 'utf8')).toBe('hello\n');
    expect(shown.signal.aborted).toBe(true);
  });

  it('the editor answers first: the agent does what it chose, the queue clears, history names the editor', async () => {
    const { path, turn, shown, pending } = await askToWrite('from-editor.txt');
    const reject = shown.params.options.find((o) => o.kind === 'reject_once')!;
    shown.answer({ outcome: { outcome: 'selected', optionId: reject.optionId } });
    await turn;
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect((await api.call('listApprovals', {})).items).toEqual([]);
    const detail = await api.call('historyDetail', { requestId: pending.requestId });
    expect(detail.decider).toMatchObject({ type: 'person', surface: 'editor' });
  });

  it('a deny rule decides: neither the editor nor a person is asked, the file stays as it was', async () => {
    const { editor, path, turn } = await startWriting('denied.txt');
    await turn;
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(editor.shown).toEqual([]);
    const row = (await api.call('history', {})).items.find((r) => r.title.includes('denied.txt'));
    expect(row).toMatchObject({ decider: { type: 'rule' } });
  });
});
