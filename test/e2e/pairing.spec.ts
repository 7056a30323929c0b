// Pairing in the browser: the page opened with a pairing secret is paired and keeps it; it makes a
// one-time link that pairs another device; a page with the bearer token only says it is not paired.
import { expect, test } from '@playwright/test';
import { startHeadless, type Headless } from './headless';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let headless: Headless;
test.afterEach(async () => headless?.stop());

const UNPAIRED = /This browser is not paired/;

test('a paired page pairs another device with a one-time link; a token-only page is unpaired', async ({
  page,
  browser,
}) => {
  headless = await startHeadless({});
  await page.goto(await headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  // The secret left the address bar; the pairing stays with the browser.
  expect(page.url()).not.toContain('pair=');
  await expect(page.getByText(UNPAIRED)).toHaveCount(0);
  await page.evaluate("location.hash = '#/settings'");
  await page.getByRole('button', { name: 'Pair another device' }).click();
  const link = (await page.getByTestId('pairing-link').getAttribute('href'))!;
  expect(link).toMatch(/\/#token=[^&]+&pair=[A-Za-z0-9_-]{43}$/);
  await page.getByTestId('pairing-link').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}/settings-devices.png` });

  const phone = await browser.newContext();
  const other = await phone.newPage();
  await other.goto(link);
  await other.locator('.topbar').waitFor();
  await expect(other.getByText(UNPAIRED)).toHaveCount(0);
  // Reloaded without any secret: still paired.
  await other.goto(`${headless.origin}/#/settings`);
  await other.locator('.topbar').waitFor();
  await expect(other.getByText(UNPAIRED)).toHaveCount(0);
  await phone.close();

  const clients = (await (await headless.api('/api/clients')).json()) as { paired: boolean }[];
  expect(clients.filter((c) => c.paired)).toHaveLength(3); // the harness, the page, the phone

  const stranger = await browser.newContext();
  const bare = await stranger.newPage();
  await bare.goto(`${headless.origin}/#token=${headless.token}`);
  await expect(bare.getByText(UNPAIRED)).toBeVisible();
  await bare.screenshot({ path: `${OUT}/unpaired-banner.png` });
  // The used link pairs nobody.
  await bare.goto(link);
  await bare.reload();
  await expect(bare.getByText(UNPAIRED)).toBeVisible();
  await stranger.close();
});
