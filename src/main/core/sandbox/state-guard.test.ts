import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardState } from './state-guard';

const root = mkdtempSync(join(tmpdir(), 'gatehouse-state-guard-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an agent’s state folder', () => {
  it('keeps what exists, makes what is missing (empty folder, {} or empty file), all to mount read-only', async () => {
    const dir = join(root, 'a', '.gemini');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), '{"hooks":{}}');
    const guard = await guardState(
      [dir],
      [
        { path: join(dir, 'settings.json'), tree: false },
        { path: join(dir, 'trustedFolders.json'), tree: false },
        { path: join(dir, '.env'), tree: false },
        { path: join(dir, 'policies'), tree: true },
      ],
    );
    expect(guard.lockedDirs).toEqual([]);
    expect(guard.readOnly).toEqual(
      ['settings.json', 'trustedFolders.json', '.env', 'policies']
        .map((name) => join(dir, name))
        .sort(),
    );
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe('{"hooks":{}}');
    expect(readFileSync(join(dir, 'trustedFolders.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('');
    expect(lstatSync(join(dir, 'policies')).isDirectory()).toBe(true);
  });

  it('stays read-only whole when a protected name is a link the agent could replace', async () => {
    const dir = join(root, 'b', '.claude');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(root, 'b', 'dotfiles.json'), '{}');
    symlinkSync(join(root, 'b', 'dotfiles.json'), join(dir, 'settings.json'));
    const guard = await guardState([dir], [{ path: join(dir, 'settings.json'), tree: false }]);
    expect(guard).toEqual({ readOnly: [], lockedDirs: [dir] });
  });
});
