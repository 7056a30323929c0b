// A new user's first ten minutes, through the UI only, at a desktop's and a phone's size: the
// pairing link opens a core with no agent and its guide; an agent is added in Settings → Agents
// (waiting for the code shown where Gatehouse runs); a session starts and the prompt is sent with
// Enter; an edit (its diff shown) and a command are approved; an edit is denied with the keyboard
// alone; an "always" scoped to the project makes a grant, read in words in Settings → Grants.
// Once with the scripted agent, once with the real Gemini CLI offline (a fake model server).
// The scripted walk's pictures go to test-results/ on every run, to docs/images/ with
// GATEHOUSE_SCREENSHOTS=1 (the README's "Your first ten minutes").
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Settings } from '../../src/shared/settings';
import type { ScriptStep, ScriptedAgentScript } from '../support/agents/scripted-agent';
import type { FakeModelServer } from '../support/fake-model-server';
import type { PreparedGemini } from '../support/gemini';
import { startHeadless, type Headless } from './headless';
import { agentsCard, fillAgentForm, typeTheCode, type AgentFields } from './support/agent-form';
import { edit, run } from './support/dialog-harness';
import { geminiHeadlessPerTest } from './support/gemini-headless';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';
const SIZES = [
  { width: 1280, height: 800, phone: false },
  { width: 390, height: 844, phone: true },
] as const;

/** What the agent is asked, turn by turn; each turn makes one request of the walk. */
const GREETING = 'greeting.txt';
const CHECKED = 'checked.txt';
const NOTES = 'notes.txt';
const CHECK_COMMAND = `echo ok > ${CHECKED}`;
const GRANT_COMMAND = 'npm test';
const PROMPTS = [
  `Create ${GREETING}`,
  'Check that it is there',
  `Write ${NOTES}`,
  'Run the tests',
] as const;

interface Walk {
  page: Page;
  headless: Headless;
  folder: string;
  agent: AgentFields;
  /** Pictures kept: the desktop's of every step, the phone's of the dialog and the grant. */
  shots: 'desktop' | 'phone' | 'none';
}

/** A picture of the page, of one element, or of the page down to the end of `above`. */
async function shoot(
  walk: Walk,
  step: string,
  phone: boolean,
  target?: { element: Locator } | { above: Locator },
) {
  if (walk.shots === 'none' || (walk.shots === 'phone') !== phone) return;
  const path = join(OUT, `walkthrough-${phone ? 'phone-' : ''}${step}.png`);
  // The pointer rests off every control, so no hover colours what the picture shows.
  await walk.page.mouse.move(0, 0);
  if (target && 'element' in target) return void (await target.element.screenshot({ path }));
  const box = target && (await target.above.boundingBox());
  const width = walk.page.viewportSize()!.width;
  await walk.page.screenshot({
    path,
    ...(box ? { clip: { x: 0, y: 0, width, height: Math.ceil(box.y + box.height + 6) } } : {}),
  });
}

const onDisk = (headless: Headless) =>
  JSON.parse(readFileSync(join(headless.home, 'settings.json'), 'utf8')) as Partial<Settings>;

/** The dialog's buttons answer once its click guard has passed and its safe default has the focus. */
async function dialogReady(dialog: Locator) {
  await expect(dialog.getByRole('button', { name: 'Reject' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expect(dialog.locator('[data-default-option]')).toBeFocused();
}

async function walkThrough(walk: Walk) {
  const { page, headless, folder, agent } = walk;
  const phone = walk.shots === 'phone';

  // 1. The pairing link: with no agent yet, the first screen says how to add one.
  await page.goto(await headless.pairingUrl());
  const guide = page.getByRole('region', { name: 'Start here' });
  await expect(guide).toContainText('No agent is configured yet.');
  // Down to its second step: the setup lines below it name this machine's own paths.
  await shoot(walk, '1-start-here', false, { above: guide.getByRole('listitem').nth(1) });

  // 2. Settings → Agents → Add agent; from a browser the new command waits for the local code.
  await guide.getByRole('link', { name: 'Settings → Agents → Add agent' }).click();
  await agentsCard(page).getByRole('button', { name: 'Add agent' }).click();
  const form = page.getByRole('form', { name: 'Add an agent' });
  await fillAgentForm(form, agent);
  await shoot(walk, '2-add-agent', false, { element: form });
  await form.getByRole('button', { name: 'Add agent' }).click();
  expect(onDisk(headless).agents?.[agent.id]).toBeUndefined();
  await typeTheCode(page, headless);
  await expect(
    agentsCard(page).getByRole('heading', { name: new RegExp(agent.name) }),
  ).toBeVisible();
  expect(onDisk(headless).agents?.[agent.id]).toMatchObject({ command: agent.command });

  // 3. A session from the Sessions view; the prompt box has the focus and Enter sends.
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const start = page.getByRole('form', { name: 'start a session' });
  await start.getByRole('combobox').selectOption({ label: agent.name });
  await start.getByLabel('Folder').fill(folder);
  await start.getByRole('button', { name: 'Start session' }).click();
  const box = page.getByRole('textbox', { name: 'prompt' });
  await expect(box).toBeFocused();
  const log = page.getByRole('log', { name: 'transcript' });
  const cancelTurn = page.getByRole('button', { name: 'Cancel turn' });
  const dialog = page.getByRole('dialog');
  const send = async (turn: number) => {
    await expect(box).toBeFocused();
    await page.keyboard.type(PROMPTS[turn]!);
    if (turn === 0) await shoot(walk, '3-prompt', false);
    await page.keyboard.press('Enter');
    await expect(log.getByLabel('you').last()).toContainText(PROMPTS[turn]!);
    await expect(cancelTurn).toBeEnabled();
  };
  // A turn runs from the prompt sent until the agent answers it; only then may it be cancelled no more.
  const turnEnds = async () => {
    await expect(dialog).toHaveCount(0);
    await expect(cancelTurn).toBeDisabled();
    await expect(page.getByText('The agent finished its turn.')).toBeVisible();
  };

  // 4. An edit, its diff shown: allowed, and the file is written.
  await send(0);
  await dialogReady(dialog);
  await expect(dialog.locator('.gh-diff-header')).toContainText('New file');
  await expect(dialog.locator('.gh-diff')).toContainText('Hello from Gatehouse');
  await shoot(walk, '4-edit', false);
  await shoot(walk, '4-edit', true);
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await turnEnds();
  expect(readFileSync(join(folder, GREETING), 'utf8')).toBe('Hello from Gatehouse\n');

  // 5. A command: allowed, and it ran.
  await send(1);
  await dialogReady(dialog);
  await expect(dialog).toContainText(CHECK_COMMAND);
  await shoot(walk, '5-command', false);
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await turnEnds();
  expect(readFileSync(join(folder, CHECKED), 'utf8')).toBe('ok\n');

  // 6. An edit denied with the keyboard alone: D, and nothing is written.
  await send(2);
  await dialogReady(dialog);
  await expect(dialog.locator('.gh-diff-header')).toContainText(NOTES);
  await page.keyboard.press('d');
  await turnEnds();
  const denied = log.getByRole('region', { name: /^tool call: / }).last();
  await expect(denied.locator('.t-status')).toHaveText('denied');
  await expect(log.getByLabel('decision').last()).toContainText('Denied by you');
  expect(existsSync(join(folder, NOTES))).toBe(false);
  // The transcript's end (the refused call, its decision, the agent's answer) lies under the prompt
  // box until the page is scrolled to its end, as a person does.
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  await shoot(walk, '6-denied', false);

  // 7. "Always", reaching this project folder for 30 minutes: the button says so.
  await send(3);
  await dialogReady(dialog);
  await expect(dialog).toContainText(GRANT_COMMAND);
  await dialog
    .getByRole('combobox', { name: 'Always applies to' })
    .selectOption({ label: 'this project folder' });
  await dialog.getByRole('combobox', { name: 'for' }).selectOption({ label: '30 minutes' });
  const always = dialog.getByRole('button', { name: 'Allow in this project for 30 min' });
  await expect(always).toBeVisible();
  await dialogReady(dialog);
  await always.scrollIntoViewIfNeeded();
  await shoot(walk, '7-always', false);
  await shoot(walk, '7-always', true);
  await always.click();
  await turnEnds();

  // 8. The grant in words, in Settings → Grants.
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const grants = page.locator('#sv-grants');
  const grant = grants.getByRole('row').filter({ hasText: GRANT_COMMAND });
  await expect(grant).toContainText(`allow ${GRANT_COMMAND} in ${folder} for 30 min`);
  await grants.scrollIntoViewIfNeeded();
  await shoot(walk, '8-grant', false, { element: grants });
  if (phone) await grant.scrollIntoViewIfNeeded();
  await shoot(walk, '8-grant', true);
}

/** A step the agent takes once allowed (`ask` only writes), and what it says once refused. */
const then = (step: ScriptStep, onAllow: ScriptStep[], onReject: ScriptStep[] = []): ScriptStep =>
  ({ ...step, onAllow, onReject }) as ScriptStep;

/** The scripted agent's four turns, in the session's folder (ACP paths are absolute). */
function scriptIn(folder: string): ScriptedAgentScript {
  const greeting = join(folder, GREETING);
  const notes = join(folder, NOTES);
  return {
    prompts: [
      [
        then(edit(greeting, null, 'Hello from Gatehouse\n'), [
          { type: 'writeFile', path: greeting, content: 'Hello from Gatehouse\n' },
        ]),
      ],
      [then(run(CHECK_COMMAND), [{ type: 'shell', command: CHECK_COMMAND }])],
      [
        then(
          edit(notes, null, 'remember\n'),
          [{ type: 'writeFile', path: notes, content: 'remember\n' }],
          [{ type: 'text', text: `Understood: ${NOTES} is left alone.` }],
        ),
      ],
      [then(run(GRANT_COMMAND), [{ type: 'text', text: 'The tests pass.' }])],
    ],
  };
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test.describe('with the scripted agent', () => {
      let headless: Headless;
      let folder: string;
      let agentDir: string;
      test.beforeEach(async () => {
        folder = realpathSync(mkdtempSync(join(tmpdir(), 'my-project-')));
        // The agent's files lie outside the temp folder, which its sandbox replaces with its own;
        // its script is a file, so the form shows one short line for it.
        agentDir = realpathSync(mkdtempSync('/var/tmp/my-agent-'));
        symlinkSync(resolve('test/e2e/support/file-script-agent.ts'), join(agentDir, 'agent.ts'));
        writeFileSync(join(agentDir, 'script.json'), JSON.stringify(scriptIn(folder)));
        headless = await startHeadless({});
      });
      test.afterEach(async () => {
        await headless.stop();
        rmSync(folder, { recursive: true, force: true });
        rmSync(agentDir, { recursive: true, force: true });
      });

      test('from the pairing link to a grant in words, through the UI only', async ({ page }) => {
        await walkThrough({
          page,
          headless,
          folder,
          agent: {
            id: 'my-agent',
            name: 'My agent',
            command: 'node',
            args: [join(agentDir, 'agent.ts')],
            env: { SCRIPTED_AGENT_SCRIPT_FILE: join(agentDir, 'script.json') },
          },
          shots: size.phone ? 'phone' : 'desktop',
        });
      });
    });

    test.describe('with the real Gemini CLI, offline', () => {
      let model: FakeModelServer;
      let gemini: PreparedGemini;
      let headless: Headless;
      let folder: string;
      geminiHeadlessPerTest(
        (setup) => {
          ({ model, gemini, headless, folder } = setup);
        },
        { configured: false },
      );

      test('added as a custom command with its environment, then the same walk', async ({
        page,
      }) => {
        const write = (file: string, content: string) => ({
          name: 'write_file',
          args: { file_path: join(folder, file), content },
        });
        const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });
        model.enqueue({ functionCalls: [write(GREETING, 'Hello from Gatehouse\n')] });
        model.enqueue({ functionCalls: [shell(CHECK_COMMAND)] });
        model.enqueue({ functionCalls: [write(NOTES, 'remember\n')] });
        model.enqueue({ functionCalls: [shell(GRANT_COMMAND)] });
        await walkThrough({
          page,
          headless,
          folder,
          agent: {
            id: 'gemini',
            name: 'Gemini CLI',
            command: gemini.command,
            args: gemini.args,
            env: gemini.env,
          },
          shots: 'none',
        });
        // The refused write reached Gemini as a refusal, and its turn went on to the end.
        expect(model.pendingScripts()).toBe(0);
      });
    });
  });
}
