// What a browser or a phone loads first: the page's code minified and gzipped, and without the
// diff's drawing (CodeMirror, its merge view and languages: half the code), which loads apart once
// the first screen is up; a diff is drawn with it all the same.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { edit, oneAgent, startDialogHarness, type DialogHarness } from './support/dialog-harness';

let h: DialogHarness | undefined;
test.afterEach(async () => {
  await h?.stop();
  h = undefined;
});

test('the first screen loads minified, gzipped code without the diff drawing; a diff is drawn with it', async ({
  page,
}) => {
  h = await startDialogHarness((folder) =>
    oneAgent([edit(join(folder, 'total.ts'), 'let total = 1;\n', 'let total = 2;\n')]),
  );
  const html = await (await fetch(`${h.headless.origin}/`)).text();
  const entry = /<script type="module"[^>]*\ssrc="\.?(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(entry, 'the page names its entry script').toBeTruthy();
  const code = await (await fetch(`${h.headless.origin}${entry}`)).text();
  // The merge view's own class name is in the drawing's code, and only there.
  expect(code).not.toContain('cm-mergeView');
  expect(code.split('\n').length).toBeLessThan(1_000);

  const scripts: string[] = [];
  const encodings = new Map<string, string | undefined>();
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'script') return;
    scripts.push(new URL(r.url()).pathname);
    encodings.set(new URL(r.url()).pathname, r.headers()['content-encoding']);
  });
  const { view } = await h.showTurn(page, 1);
  await expect(view.getByLabel('after')).toContainText('let total = 2;');
  expect(scripts).toContain(entry);
  expect(encodings.get(entry!)).toBe('gzip');
  expect(scripts.some((s) => s !== entry && s.startsWith('/assets/mount-diff'))).toBe(true);
});
