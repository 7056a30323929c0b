// The desktop app for real: the built main process in Electron, its windows, tray and single
// instance, with a scripted agent. Runs wherever an Electron binary exists (GATEHOUSE_ELECTRON).
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import type { ScriptStep } from '../support/agents/scripted-agent';
import type { GatehouseBridge } from '../../src/shared/contract';
import {
  binary,
  hook,
  launchApp,
  prepareHome,
  secondInstance,
  startXvfb,
  type Home,
} from './launch';

test.skip(
  !binary,
  'skipped: no Electron binary — set GATEHOUSE_ELECTRON (npm test does where one exists)',
);

const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];

const writeRequest = (file: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: {
    toolCallId: 'write-1',
    kind: 'edit',
    title: `Write ${file}`,
    locations: [{ path: file }],
    content: [{ type: 'diff', path: file, oldText: null, newText: 'hello\n' }],
    rawInput: { path: file, content: 'hello\n' },
  },
  options: OPTIONS,
  onAllow: [{ type: 'writeFile', path: file, content: 'hello\n' }],
});

const commandRequest = (command: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: {
    toolCallId: `cmd-${command}`,
    kind: 'execute',
    title: command,
    rawInput: { command },
  },
  options: OPTIONS,
});

let xvfb: Awaited<ReturnType<typeof startXvfb>> = null;
let home: Home;
let app: ElectronApplication | undefined;
let page: Page;

test.beforeAll(async () => {
  if (binary) xvfb = await startXvfb();
});
test.afterAll(async () => {
  await xvfb?.stop();
});

test.beforeEach(async () => {
  home = prepareHome(
    {
      onPrompt: {
        write: [writeRequest('hello.txt')],
        command: [commandRequest('make release')],
        wait: [commandRequest('sleep 1000')],
      },
    },
    xvfb?.display,
  );
  ({ app, page } = await launchApp(home));
});

test.afterEach(async () => {
  await app?.close().catch(() => undefined);
  app = undefined;
  home.cleanup();
});

/** Starts a session and a prompt from inside the page, through the preload bridge. */
async function prompt(text: string): Promise<string> {
  return page.evaluate(
    async ({ cwd, text }) => {
      const api = (globalThis as unknown as { gatehouse: GatehouseBridge }).gatehouse;
      const created = await api.createSession({ agentId: 'scripted', cwd });
      if (!created.ok) throw new Error(created.error.message);
      void api.prompt({ sessionId: created.result.sessionId, text });
      return created.result.sessionId;
    },
    { cwd: home.folder, text },
  );
}

async function pendingId(): Promise<string> {
  await expect.poll(() => hook(app!, 'pending')).toHaveLength(1);
  return (await hook(app!, 'pending'))[0]!;
}

test('the dialog window is hardened: served from gatehouse://app, no Node in the page, eval blocked by the CSP, no way out', async () => {
  expect(page.url()).toMatch(/^gatehouse:\/\/app\/index\.html#\/approvals/);
  // No Node in the page (sandbox, contextIsolation, no nodeIntegration): nothing of it leaks in.
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
    'undefined',
  );
  expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe(
    'undefined',
  );
  expect(
    await page.evaluate(() => {
      try {
        return String(eval('1 + 1'));
      } catch {
        return 'blocked';
      }
    }),
  ).toBe('blocked');
  // The bridge exposes named methods only.
  expect(
    await page.evaluate(() =>
      Object.keys((globalThis as unknown as { gatehouse: object }).gatehouse).sort(),
    ),
  ).toContain('vote');
  expect(
    await page.evaluate(
      () => 'invoke' in (globalThis as unknown as { gatehouse: object }).gatehouse,
    ),
  ).toBe(false);
  // Navigation away and window.open are refused.
  await page.evaluate(() => {
    const page = globalThis as unknown as {
      open(url: string): unknown;
      location: { href: string };
    };
    page.open('https://example.com/');
    page.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toMatch(/^gatehouse:\/\/app\//);
  expect(app!.windows()).toHaveLength(1);
});

test('request → dialog → Allow: the agent writes, the decision is audited from the dialog', async () => {
  await prompt('write');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /^Allow( once)?$/ }).click();
  await expect.poll(() => existsSync(join(home.folder, 'hello.txt'))).toBe(true);
  expect(readFileSync(join(home.folder, 'hello.txt'), 'utf8')).toBe('hello\n');
  const history = await page.evaluate(async () => {
    const api = (globalThis as unknown as { gatehouse: GatehouseBridge }).gatehouse;
    return api.history({});
  });
  expect(history.ok && history.result.items[0]?.decider).toEqual({
    type: 'person',
    clientId: 'desktop',
    surface: 'dialog',
  });
});

test('the tray: menu present, pending request listed, Deny from the tray is audited as such', async () => {
  const idle = await hook(app!, 'tray');
  expect(idle?.menu.map((i) => (i.type === 'separator' ? '---' : i.label))).toEqual([
    'Nothing is waiting',
    '---',
    'Open approvals',
    'History',
    'Pause notifications',
    'Settings',
    '---',
    'Quit',
  ]);
  await prompt('command');
  const requestId = await pendingId();
  await expect.poll(async () => (await hook(app!, 'tray'))?.count).toBe(1);
  const tray = (await hook(app!, 'tray'))!;
  expect(tray.icon).toBe('pending');
  const item = tray.menu[1];
  expect(item?.type === 'submenu' && item.label).toBe('Scripted: $ make release');
  await hook(app!, 'perform', { type: 'vote', requestId, optionId: 'reject', decision: 'deny' });
  await expect.poll(async () => (await hook(app!, 'tray'))?.count).toBe(0);
  const detail = await page.evaluate(async (id) => {
    const api = (globalThis as unknown as { gatehouse: GatehouseBridge }).gatehouse;
    return api.historyDetail({ requestId: id });
  }, requestId);
  expect(detail.ok && detail.result.decider).toEqual({
    type: 'person',
    clientId: 'desktop',
    surface: 'tray',
  });

  await hook(app!, 'perform', { type: 'toggle-pause' });
  expect(await hook(app!, 'paused')).toBe(true);
});

test('Help → Save Support Bundle… writes the zip where the save dialog says, with the chain checked by the running core', async () => {
  const out = join(home.folder, 'support.zip');
  await app!.evaluate(({ dialog, Menu }, file) => {
    dialog.showSaveDialog = (async () => ({ canceled: false, filePath: file })) as never;
    Menu.getApplicationMenu()!.getMenuItemById('save-support-bundle')!.click();
  }, out);
  const readZip = () => {
    try {
      return unzipSync(readFileSync(out));
    } catch {
      return null;
    }
  };
  await expect.poll(() => readZip() !== null).toBe(true);
  const files = readZip()!;
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining([
      'versions.json',
      'settings.json',
      'audit-entries.json',
      'audit-verify.txt',
    ]),
  );
  expect(strFromU8(files['audit-verify.txt']!)).toMatch(/^audit: OK/);
});

test('a second instance hands its gatehouse:// link to the first and exits', async () => {
  await prompt('wait');
  const requestId = await pendingId();
  const second = secondInstance(home, [`gatehouse://approve/${requestId}`]);
  const [code] = (await once(second, 'exit')) as [number | null];
  expect(code).toBe(0);
  await expect.poll(() => hook(app!, 'secondInstances')).toBe(1);
  expect(await hook(app!, 'lastLink')).toEqual({ type: 'approve', requestId });
  await expect
    .poll(async () => (await hook(app!, 'windows')).find((w) => w.url.includes('#/approvals')))
    .toMatchObject({ url: expect.stringContaining(`#/approvals/${requestId}`), visible: true });
  expect(app!.windows()).toHaveLength(1);
});

test('closing the window keeps Gatehouse in the tray; quit answers pending requests fail-closed, audited', async () => {
  await prompt('wait');
  const requestId = await pendingId();
  await app!.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows().forEach((w) => w.close()),
  );
  await expect.poll(() => hook(app!, 'windows')).toEqual([]);
  expect(await hook(app!, 'pending')).toEqual([requestId]);

  const exited = new Promise<void>((resolve) => app!.process().once('exit', () => resolve()));
  await app!.evaluate(({ app: electronApp }) => electronApp.quit());
  await exited;
  app = undefined;

  // Relaunched on the same home: the request was decided by the shutdown, before the exit.
  ({ app, page } = await launchApp(home));
  const detail = await page.evaluate(async (id) => {
    const api = (globalThis as unknown as { gatehouse: GatehouseBridge }).gatehouse;
    return api.historyDetail({ requestId: id });
  }, requestId);
  expect(detail.ok && detail.result.decider).toEqual({ type: 'shutdown' });
});
