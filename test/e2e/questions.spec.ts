// An agent's questions in the real UI: a form filled in (a wrong value shown at its field, the
// right ones sent exactly), then a link question whose host is shown first, never opened by the
// page, and declined. Screenshots go to test-results/, and the filled form to docs/images/ with
// GATEHOUSE_SCREENSHOTS=1.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { seriousViolations } from './support/axe';
import { startDialogHarness, type DialogHarness } from './support/dialog-harness';

const SEEN = 'test-results/screenshots';
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : SEEN;

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const form: ScriptStep = {
  type: 'raw',
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Which release should I prepare? I will tag it and write the changelog.',
    requestedSchema: {
      type: 'object',
      title: 'Prepare a release',
      properties: {
        name: { type: 'string', title: 'Release name', minLength: 2, maxLength: 40 },
        channel: {
          type: 'string',
          title: 'Channel',
          oneOf: [
            { const: 'beta', title: 'Beta testers' },
            { const: 'stable', title: 'Everyone' },
          ],
        },
        count: {
          type: 'integer',
          title: 'Release candidates',
          description: 'How many candidates to build first',
          minimum: 1,
          maximum: 5,
          default: 2,
        },
        publish: { type: 'boolean', title: 'Publish when the build passes', default: false },
      },
      required: ['name', 'channel'],
    },
  },
};

const link: ScriptStep = {
  type: 'raw',
  method: 'elicitation/create',
  params: {
    mode: 'url',
    message: 'Sign in to GitHub so I can open the pull request.',
    elicitationId: 'el-1',
    url: 'https://auth.example.com/device?code=42&next=%2Fgithub',
  },
};

test('a form is answered and a link question declined, in the real UI', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  h = await startDialogHarness([
    { id: 'claude', name: 'Claude Code', script: { prompts: [[form, link]] } },
  ]);
  const { view } = await h.showTurn(page, 1);
  await expect(view.getByText('Claude Code', { exact: true }).first()).toBeVisible();
  await expect(view.getByRole('heading', { name: 'Prepare a release' })).toBeVisible();
  // The agent's words, marked as its words.
  await expect(view.getByText('The agent’s words (it may not tell the truth)')).toBeVisible();
  await expect(view.locator('blockquote')).toHaveText(/^Which release should I prepare/);

  const name = view.getByLabel(/Release name/);
  await name.fill('v');
  await expect(view.getByLabel(/Release candidates/)).toHaveValue('2');
  await view.getByRole('button', { name: 'Send answer' }).click();
  // Wrong values are shown at their fields; nothing is sent.
  await expect(view.getByText('at least 2 characters')).toBeVisible();
  await expect(view.getByText('required', { exact: true })).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: join(SEEN, 'question-form-errors.png') });
  // As the dialog's own check: nothing serious or critical.
  expect(await seriousViolations(page, '.gh-approvals')).toEqual([]);
  expect(h.rawAnswers('claude')).toEqual({});

  // Typed into a field, the dialog's own keys (A allow, D deny) are the field's letters.
  await name.fill('');
  await name.pressSequentially('Dandelion');
  await view.getByLabel(/Channel/).selectOption({ label: 'Beta testers' });
  await view.getByLabel(/Release candidates/).fill('3');
  await view.getByLabel(/Publish when the build passes/).check();
  await page.screenshot({ path: join(OUT, 'question-form.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SEEN, 'question-form-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Enter in a field sends the answer, as in any form.
  await name.press('Enter');
  await expect
    .poll(() => h.rawAnswers('claude')['raw-1'])
    .toEqual({
      result: {
        action: 'accept',
        content: { name: 'Dandelion', channel: 'beta', count: 3, publish: true },
      },
    });

  // The link question comes next: its host first, the address as text, a link never followed.
  await expect(
    view.getByRole('heading', { name: /Open a page on auth\.example\.com/ }),
  ).toBeVisible();
  await expect(
    view.getByText('https://auth.example.com/device?code=42&next=%2Fgithub'),
  ).toBeVisible();
  const open = view.getByRole('link', { name: 'Open link' });
  await expect(open).toHaveAttribute(
    'href',
    'https://auth.example.com/device?code=42&next=%2Fgithub',
  );
  await expect(open).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(open).toHaveAttribute('target', '_blank');
  await page.screenshot({ path: join(SEEN, 'question-link.png') });
  // As the dialog's own check: nothing serious or critical.
  expect(await seriousViolations(page, '.gh-approvals')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SEEN, 'question-link-phone.png') });
  await view.getByRole('button', { name: 'Decline' }).click();
  await expect
    .poll(() => h.rawAnswers('claude')['raw-2'])
    .toEqual({ result: { action: 'decline' } });
  // Nothing was opened for the person.
  expect(page.context().pages()).toHaveLength(1);
});
