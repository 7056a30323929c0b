// A phone can approve: at 360, 390 and 430 px wide no view scrolls sideways (home, the sessions
// and a session, the dialog over the page and as its own view with a diff and a command, history
// and a detail, settings, an approval link), and the dialog's buttons and scope select lie on
// screen.
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  approvalsView,
  edit,
  oneAgent,
  run,
  startDialogHarness,
  type DialogHarness,
} from './support/dialog-harness';
import { decideTurn, openSession, registerVoter } from './support/history-harness';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

const BEFORE = `export function greet(name: string): string {
  return 'Hello, ' + name;
}
`;
const AFTER = `export function greet(name: string, greeting = 'Hello'): string {
  return \`\${greeting}, \${name.trim()} — welcome back to the project dashboard\`;
}
`;

let h: DialogHarness;
test.afterEach(async () => h?.stop());

/** The elements that reach past the right edge, for the failure message (the first few). */
const WIDE_ELEMENTS = `[...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > document.scrollingElement.clientWidth + 0.5)
  .slice(0, 8)
  .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : ''))`;

/** The page is no wider than the screen: nothing to scroll to sideways. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const width = page.viewportSize()!.width;
  await page.screenshot({
    path: `test-results/screenshots/phone-${width}-${where.replace(/\W+/g, '-')}.png`,
    fullPage: true,
  });
  const [scrollWidth, clientWidth] = await page.evaluate<[number, number]>(
    '[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]',
  );
  const wide = scrollWidth > clientWidth ? await page.evaluate<string[]>(WIDE_ELEMENTS) : [];
  expect(
    scrollWidth,
    `${where}: page ${scrollWidth}px wide in ${clientWidth}px (${wide.join(', ')})`,
  ).toBeLessThanOrEqual(clientWidth);
}

/** Every one of these lies wholly inside the screen's width, so a thumb reaches it. */
async function expectWithinWidth(page: Page, items: Locator, where: string) {
  const width = page.viewportSize()!.width;
  // The dialog shows its place in the queue before the request it holds has arrived whole.
  await expect(items.first(), `${where}: nothing to check`).toBeVisible();
  const count = await items.count();
  expect(count, `${where}: nothing to check`).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const item = items.nth(i);
    await item.scrollIntoViewIfNeeded();
    const box = (await item.boundingBox())!;
    const name = (await item.getAttribute('aria-label')) ?? (await item.innerText());
    expect(box.x, `${where}: "${name}" starts at ${box.x}`).toBeGreaterThanOrEqual(0);
    expect(
      box.x + box.width,
      `${where}: "${name}" ends at ${box.x + box.width}`,
    ).toBeLessThanOrEqual(width);
  }
}

/** The dialog's answers and its scope select, on screen. */
async function expectDialogReachable(page: Page, dialog: Locator, where: string) {
  await expectNoSidewaysScroll(page, where);
  await expectWithinWidth(
    page,
    dialog.locator('.gh-option-group button, .gh-grant select'),
    `${where} (answers)`,
  );
  await expect(dialog.getByRole('button', { name: 'Reject', exact: true })).toBeInViewport();
}

for (const width of [360, 390, 430]) {
  test(`no view scrolls sideways at ${width} px, and the dialog's buttons are reachable`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    h = await startDialogHarness((folder) => [
      ...oneAgent(
        [
          edit(join(folder, 'src/greeting-for-the-dashboard.ts'), BEFORE, AFTER, {
            title: 'Let the greeting be chosen and trim the name before greeting',
          }),
          run(
            'npm run test -- --reporter=verbose --coverage src/greeting-for-the-dashboard.test.ts',
            'Run the greeting tests with coverage',
          ),
        ],
        { id: 'claude', name: 'Claude Code' },
      ),
      {
        id: 'gemini',
        name: 'Gemini CLI',
        script: {
          prompts: [
            [
              {
                type: 'requestPermission',
                toolCall: { toolCallId: 'done-1', kind: 'execute', title: 'List the files' },
                options: [
                  { optionId: 'opt-once', name: 'Allow', kind: 'allow_once' },
                  { optionId: 'opt-reject', name: 'Reject', kind: 'reject_once' },
                ],
                onAllow: [],
              },
            ],
          ],
        },
      },
    ]);
    // One decided request, for the history.
    const voter = await registerVoter(h);
    const decided = await openSession(h, 'gemini');
    await decideTurn(h, voter, decided, 'go', { optionId: 'opt-once' });
    const sessionId = await h.startTurn('claude');
    await h.waitForPending(2);

    // Home, with the dialog over it.
    await h.open(page, 'sessions');
    await page.evaluate("location.hash = '#/'");
    const modal = page.getByRole('dialog');
    await expect(modal.getByRole('status', { name: 'Queue position' })).toHaveText(/of 2$/);
    await expectDialogReachable(page, modal, 'home, dialog over it');
    if (width === 390) await page.screenshot({ path: `${OUT}/phone-dialog.png` });
    await modal.getByRole('button', { name: 'Later' }).click();
    await expect(modal).toHaveCount(0);
    await expectNoSidewaysScroll(page, 'home');

    // The sessions, and one session.
    await page.evaluate("location.hash = '#/sessions'");
    await expect(page.getByRole('navigation', { name: 'sessions' })).toBeVisible();
    await expectNoSidewaysScroll(page, 'sessions');
    await page.evaluate(`location.hash = '#/sessions/${sessionId}'`);
    await expect(page.getByText('Run the greeting tests with coverage').first()).toBeVisible();
    await expectNoSidewaysScroll(page, 'a session');

    // The dialog as its own view: the edit with its diff, then the command.
    await page.evaluate("location.hash = '#/approvals'");
    const view = approvalsView(page);
    // On a phone the queue is folded away: the requests are walked with Next.
    for (let i = 0; i < 2; i++) {
      if (i > 0) await view.getByRole('button', { name: 'Next request' }).click();
      await expect(view.getByRole('status', { name: 'Queue position' })).toHaveText(
        `${i + 1} of 2`,
      );
      await expect(view.getByText('Loading the request…')).toHaveCount(0);
      await expectDialogReachable(page, view, `approvals, request ${i + 1}`);
    }
    await expect(view.getByText('--reporter=verbose').first()).toBeAttached();

    // History and a decision's detail.
    await page.evaluate("location.hash = '#/history'");
    await page.getByRole('option', { name: /List the files/ }).click();
    await expect(page.getByRole('heading', { name: /List the files/ })).toBeVisible();
    await expectNoSidewaysScroll(page, 'history with a detail');
    await page.evaluate("location.hash = '#/history'");
    await expectNoSidewaysScroll(page, 'history');

    // Settings, every section.
    await page.evaluate("location.hash = '#/settings'");
    await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
    await expectNoSidewaysScroll(page, 'settings');

    // The navigation: every view's link on screen.
    await page.evaluate("location.hash = '#/'");
    await expectWithinWidth(
      page,
      page.getByRole('navigation', { name: 'views' }).getByRole('link'),
      'the navigation',
    );
    if (width === 390) await page.screenshot({ path: `${OUT}/phone-nav.png` });

    // An approval link, opened on the phone.
    const [waiting] = await h.pending();
    const made = await h.headless.api(`/api/approvals/${waiting!.requestId}/link`, {
      method: 'POST',
      headers: {
        'x-gatehouse-client-id': h.headless.identity.clientId,
        'x-gatehouse-client-token': h.headless.identity.clientToken,
      },
      body: '{}',
    });
    expect(made.status).toBe(200);
    const { token } = (await made.json()) as { token: string };
    const phone = await page
      .context()
      .browser()!
      .newContext({ viewport: { width, height: 844 } });
    const linkPage = await phone.newPage();
    await linkPage.goto(`${h.headless.origin}/#/link/${token}`);
    await expect(linkPage.getByRole('group', { name: 'Your answer' })).toBeVisible();
    await expectNoSidewaysScroll(linkPage, 'an approval link');
    await expectWithinWidth(
      linkPage,
      linkPage.getByRole('group', { name: 'Your answer' }).getByRole('button'),
      'an approval link (answers)',
    );
    await phone.close();
  });
}
