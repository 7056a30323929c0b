// Pairing in the browser: the page opened with a pairing secret is paired and keeps it; it makes a
// one-time link that pairs another device; a page with the bearer token only says it is not paired.
import { networkInterfaces } from 'node:os';
import { expect, test } from '@playwright/test';
import { renderSVG } from 'uqr';
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

test('served on loopback, Devices says that only this machine reaches it and shows no QR code', async ({
  page,
}) => {
  headless = await startHeadless({});
  // Loopback unless a person says otherwise: no address another device could open.
  expect(await (await headless.api('/api/server')).json()).toEqual({
    served: true,
    host: '127.0.0.1',
    port: Number(new URL(headless.origin).port),
    networkUrls: [],
  });
  await page.goto(await headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate("location.hash = '#/settings'");
  await expect(page.getByTestId('server-reach')).toContainText('Reachable from this machine only');
  await page.getByRole('button', { name: 'Pair another device' }).click();
  await expect(page.getByTestId('pairing-link')).toHaveAttribute('href', /^http:\/\/127\.0\.0\.1:/);
  await expect(page.getByTestId('pairing-qr')).toHaveCount(0);
  await expect(page.getByText('another device cannot open it')).toBeVisible();
});

/** An address of this machine a phone on its network could reach, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

test.describe('served on the network', () => {
  test.skip(!external, 'this machine has no network address');
  test.use({ viewport: { width: 390, height: 844 } });

  test('Devices names the network address, its link and QR code use it, and a browser pairing again is listed once', async ({
    page,
  }) => {
    headless = await startHeadless({}, { host: external });
    const origin = `http://${external}:${new URL(headless.origin).port}`;
    expect(headless.origin).toBe(origin);
    await page.goto(await headless.pairingUrl());
    await page.locator('.topbar').waitFor();
    await page.evaluate("location.hash = '#/settings'");
    await expect(page.getByTestId('server-reach')).toContainText(
      `Reachable from the network at ${origin}`,
    );
    await page.getByRole('button', { name: 'Pair another device' }).click();
    const link = (await page.getByTestId('pairing-link').getAttribute('href'))!;
    expect(link.startsWith(`${origin}/#token=`)).toBe(true);
    // The code a phone scans is the link itself.
    const qr = page.getByTestId('pairing-qr');
    await expect(qr).toHaveAttribute(
      'src',
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(link, { border: 2 }))}`,
    );
    await page.locator('#sv-devices').evaluate((card) => card.scrollIntoView());
    await page.screenshot({ path: `${OUT}/phone-devices-qr.png` });

    // The start of every run is what a person opens again after a restart: a new link, the same
    // browser. Its earlier pairing is replaced, not listed beside the new one.
    const paired = async () =>
      ((await (await headless.api('/api/clients')).json()) as { paired: boolean }[]).filter(
        (c) => c.paired,
      ).length;
    const before = await paired();
    await page.goto(await headless.pairingUrl());
    await page.locator('.topbar').waitFor();
    await expect(page.getByText(UNPAIRED)).toHaveCount(0);
    expect(await paired()).toBe(before);
    await page.evaluate("location.hash = '#/settings'");
    await expect(page.getByRole('table', { name: 'Devices' }).getByText(/^Browser/)).toHaveCount(1);
  });
});

test.describe('served on every address', () => {
  test.skip(!external, 'this machine has no network address');

  test('a page opened on this machine makes a pairing link on the network address, not its own', async ({
    page,
  }) => {
    headless = await startHeadless({}, { host: '0.0.0.0' });
    const port = new URL(headless.origin).port;
    // What this machine opens is loopback; what a phone opens is the network address.
    expect(headless.origin).toBe(`http://127.0.0.1:${port}`);
    await page.goto(await headless.pairingUrl());
    await page.locator('.topbar').waitFor();
    await page.evaluate("location.hash = '#/settings'");
    await page.getByRole('button', { name: 'Pair another device' }).click();
    const link = (await page.getByTestId('pairing-link').getAttribute('href'))!;
    expect(link.startsWith(`http://${external}:${port}/#token=`)).toBe(true);
    await expect(page.getByTestId('pairing-qr')).toBeVisible();
    // The phone opens it there and is paired.
    const phone = await page.context().browser()!.newContext();
    const other = await phone.newPage();
    await other.goto(link);
    await other.locator('.topbar').waitFor();
    await expect(other.getByText(UNPAIRED)).toHaveCount(0);
    await phone.close();
  });
});
