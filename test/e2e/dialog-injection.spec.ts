// Injection payloads in titles, paths, diffs, commands, option names and raw input render as inert
// text: no script runs, no element is created from them.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { PermissionOption } from '../../src/shared/domain';
import { ask, oneAgent, startDialogHarness, type DialogHarness } from './support/dialog-harness';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const PAYLOADS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '"><svg onload="window.__pwned = \'svg\'"></svg>',
  '<a href="javascript:window.__pwned=\'link\'">Running tests (npm test)</a>',
  '[Running tests](javascript:window.__pwned="markdown") **bold** <b>b</b>',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  '</textarea></pre><script>alert("pwned")</script>',
  '<details open ontoggle="window.__pwned=\'details\'">x</details>',
  '{{constructor.constructor("window.__pwned=\'template\'")()}}',
];

test('payloads in every field stay inert text', async ({ page }) => {
  const events: string[] = [];
  page.on('dialog', (d) => {
    events.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/pwned/i.test(m.text())) events.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => events.push(`error: ${e.message}`));

  h = await startDialogHarness((folder) =>
    oneAgent(
      PAYLOADS.map((payload, i) => {
        const path = join(folder, `file-${i}-${payload.replace(/\//g, '∕')}.html`);
        const options: PermissionOption[] = [
          { optionId: `yes-${i}`, name: payload, kind: 'allow_once' },
          { optionId: `no-${i}`, name: `No ${payload}`, kind: 'reject_once' },
        ];
        return ask(
          {
            kind: i % 2 === 0 ? 'edit' : 'execute',
            title: `${i} ${payload}`,
            locations: [{ path }],
            content:
              i % 2 === 0
                ? [
                    {
                      type: 'diff',
                      path,
                      oldText: `<p>${payload}</p>\n`,
                      newText: `${payload}\n<p>ok</p>\n`,
                    },
                  ]
                : [{ type: 'content', content: { type: 'text', text: payload } }],
            rawInput:
              i % 2 === 0
                ? { path, note: payload }
                : { command: `echo '${payload}'`, description: payload },
          },
          options,
        );
      }),
    ),
  );
  const { view } = await h.showTurn(page, PAYLOADS.length);
  await expect(
    view.getByRole('navigation', { name: 'Pending requests' }).getByRole('listitem'),
  ).toHaveCount(PAYLOADS.length);
  const scripts = await page.locator('script').count();

  for (let i = 0; i < PAYLOADS.length; i++) {
    await view
      .getByRole('navigation', { name: 'Pending requests' })
      .getByRole('button', { name: new RegExp(`^(Edit|Run) ${i} `) })
      .click();
    const payload = PAYLOADS[i]!;
    await expect(view.getByRole('heading', { level: 2 })).toHaveText(`${i} ${payload}`);
    await expect(view.getByRole('button', { name: payload, exact: true })).toBeVisible();
    await view.getByText('Raw input, as the agent sent it').click();
    await expect(view.getByLabel('Raw input')).toContainText(
      i % 2 === 0 ? '"note"' : '"description"',
    );
    if (i % 2 === 0) await expect(view.getByLabel(/^After:/)).toContainText(payload);
    else await expect(view.getByLabel('Command line')).toContainText(payload);

    expect(await page.locator('script').count()).toBe(scripts);
    await expect(page.locator('img, iframe, object, embed')).toHaveCount(0);
    await expect(page.locator('[onerror], [onload], [ontoggle], [onclick]')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript"], details[ontoggle]')).toHaveCount(0);
    await expect(view.locator('b')).toHaveCount(0);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
  }
  // The title_mismatch warning quotes the title: as text too.
  expect(events).toEqual([]);
});
