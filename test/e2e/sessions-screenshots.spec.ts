// Screenshots of the first screen and the sessions window for docs/images/ (light theme), over the
// scripted agent and an editor session through `gatehouse acp`. They are looked at, not compared.
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startEditor, type ScriptedEditor } from '../support/scripted-editor';
import { edit, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { registryFixture } from '../support/registry-fixture';
import { startHeadless } from './headless';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';
const CLI = resolve('bin/gatehouse.mjs');

let h: DialogHarness | undefined;
let editor: ScriptedEditor | undefined;
test.afterEach(async () => {
  await editor?.close();
  await h?.stop();
  editor = undefined;
  h = undefined;
});
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 860 } });

test('the first screen with no agent: the guide, with the editor and terminal snippets', async ({
  page,
}) => {
  // Nothing found on this PATH: the guide offers the registry snapshot's agents.
  const headless = await startHeadless(
    {},
    { path: '/usr/bin:/bin', files: { 'registry.json': JSON.stringify(registryFixture()) } },
  );
  try {
    await page.goto(await headless.pairingUrl());
    const guide = page.getByRole('region', { name: 'Start here' });
    await expect(guide).toContainText('"acp", "--agent", "gemini"');
    await expect(guide).toContainText('gatehouse.mjs hook install claude-code');
    await expect(guide.getByRole('list', { name: 'Agents to add' })).toContainText('Gemini CLI');
    await page.screenshot({ path: join(OUT, 'home-guide.png') });
  } finally {
    await headless.stop();
  }
});

test('the sessions window with a transcript, and the first screen after a decision', async ({
  page,
}) => {
  h = await startDialogHarness((folder) => [
    {
      id: 'claude',
      name: 'Claude Code',
      script: {
        prompts: [
          [
            { type: 'text', text: 'I will add the **greeting** to `hello.py`.' },
            edit(join(folder, 'hello.py'), null, 'print("hello")\n'),
            { type: 'text', text: '\n\nDone: `hello.py` prints the greeting.' },
          ],
        ],
      },
    },
    {
      id: 'gemini',
      name: 'Gemini CLI',
      script: {
        prompts: [
          [
            {
              type: 'requestPermission',
              toolCall: { toolCallId: 'r1', title: 'Read README.md', kind: 'read' },
              options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }],
            },
            { type: 'text', text: 'The README describes a small CLI.' },
          ],
        ],
      },
    },
  ]);
  // An editor's session: the editor answers its agent's first question itself.
  editor = startEditor({
    command: process.execPath,
    args: [CLI, 'acp', '--agent', 'gemini'],
    env: { ...process.env, GATEHOUSE_HOME: h.headless.home },
    cwd: h.folder,
    name: 'Zed',
  });
  await editor.initialize();
  const acpSession = await editor.newSession(h.folder);
  const turn = editor.prompt(acpSession, 'What is this project?');
  (await editor.nextShown()).answer({ outcome: { outcome: 'selected', optionId: 'yes' } });
  await turn;

  const sessionId = await h.startTurn('claude', 'Add a greeting to hello.py');
  await h.waitForPending(1);
  await h.open(page, 'sessions');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto(`${new URL(page.url()).origin}/#/sessions/${sessionId}`);
  const log = page.getByRole('log', { name: 'transcript' });
  await expect(log.getByLabel('decision')).toContainText('Allowed by you');
  await expect(log.getByLabel('agent').last()).toContainText('prints the greeting');
  await expect(page.getByRole('navigation', { name: 'sessions' })).toContainText('in Zed');
  await page.screenshot({ path: join(OUT, 'sessions.png') });

  // While anything waits, the dialog covers the first screen; once decided, the first screen
  // shows the running sessions and the last decisions.
  await page.goto(`${new URL(page.url()).origin}/#/`);
  await expect(page.getByRole('main')).toContainText('Create hello.py');
  await page.screenshot({ path: join(OUT, 'home.png') });
});
