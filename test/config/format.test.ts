// `npm test` checks formatting: a file prettier would change fails the run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

describe('formatting', () => {
  it('is one of the checks of npm test', () => {
    const script = readFileSync(join(root, 'scripts/test.mjs'), 'utf8');
    expect(script).toContain("check('format', run('npx', ['prettier', '--check', '.']))");
  });

  it('an unformatted source file fails the check; the same code formatted passes', async () => {
    const filepath = join(root, 'src/main/core/probe.ts');
    const options = { ...(await prettier.resolveConfig(filepath)), filepath };
    expect(await prettier.check('const a = {b:1, c:"x"}\n', options)).toBe(false);
    expect(await prettier.check("const a = { b: 1, c: 'x' };\n", options)).toBe(true);
  });
});
