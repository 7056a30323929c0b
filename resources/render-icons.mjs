// Renders the SVG sources in resources/ to the PNGs the app and electron-builder use, with the
// Chromium Playwright already drives (Debian's, or CHROMIUM_PATH). Run: npm run icons
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = dirname(fileURLToPath(import.meta.url));
const which = (cmd) => {
  try {
    return execFileSync('which', [cmd], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
};

/** [svg source, output png, size in px] */
const jobs = [
  ['icon.svg', 'icon.png', 1024],
  ...[16, 24, 32, 48, 64, 128, 256, 512, 1024].map((s) => ['icon.svg', `icons/${s}x${s}.png`, s]),
  ['tray.svg', 'tray.png', 16],
  ['tray.svg', 'tray@2x.png', 32],
  ['tray-pending.svg', 'tray-pending.png', 16],
  ['tray-pending.svg', 'tray-pending@2x.png', 32],
  ['trayTemplate.svg', 'trayTemplate.png', 16],
  ['trayTemplate.svg', 'trayTemplate@2x.png', 32],
  ['overlay-badge.svg', 'overlay-badge.png', 16],
  ['overlay-badge.svg', 'overlay-badge@2x.png', 32],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? which('chromium') ?? which('chromium-browser'),
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  for (const [source, output, size] of jobs) {
    const svg = readFileSync(join(here, source), 'utf8').replace(
      '<svg ',
      `<svg width="${size}" height="${size}" `,
    );
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`,
    );
    mkdirSync(dirname(join(here, output)), { recursive: true });
    await page.screenshot({
      path: join(here, output),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    console.log(`${output} (${size}px)`);
  }
} finally {
  await browser.close();
}
