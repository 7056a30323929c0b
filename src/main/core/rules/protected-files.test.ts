import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import {
  extraEntry,
  isEntryAncestor,
  PROTECTED_FILES,
  protectedEntryFor,
  protectedEntryForReal,
  type ProtectedEntry,
} from './protected-files';

describe('protected files', () => {
  it('finds hooks, config and editor tasks at the root, whatever their case', () => {
    expect(protectedEntryFor('.git/hooks/pre-commit')?.path).toBe('.git/hooks');
    expect(protectedEntryFor('.git/hooks')?.path).toBe('.git/hooks');
    expect(protectedEntryFor('.git/config')?.path).toBe('.git/config');
    expect(protectedEntryFor('.VSCode/tasks.json')?.path).toBe('.vscode');
    expect(protectedEntryFor('.yarnrc.yml')?.path).toBe('.yarnrc*');
    expect(protectedEntryFor('./.envrc')?.runs).toMatch(/direnv/);
  });

  it('leaves the rest of git and the project alone', () => {
    expect(protectedEntryFor('.git/objects/ab/cdef')).toBeNull();
    expect(protectedEntryFor('.git/index')).toBeNull();
    expect(protectedEntryFor('.git/config.lock')).toBeNull();
    expect(protectedEntryFor('src/index.ts')).toBeNull();
    expect(protectedEntryFor('package.json')).toBeNull();
    expect(protectedEntryFor('.gitignore')).toBeNull();
  });

  it('matches deeper names only when asked to', () => {
    expect(protectedEntryFor('packages/a/.vscode/tasks.json')).toBeNull();
    expect(protectedEntryFor('packages/a/.vscode/tasks.json', PROTECTED_FILES, true)?.path).toBe(
      '.vscode',
    );
  });

  it("knows the folders on the way to an entry, and git's redirect to another common folder", () => {
    expect(isEntryAncestor('.git')).toBe(true);
    expect(isEntryAncestor('.GIT')).toBe(true);
    expect(isEntryAncestor('.git/hooks')).toBe(false);
    expect(isEntryAncestor('.vscode')).toBe(false);
    expect(isEntryAncestor('src')).toBe(false);
    expect(isEntryAncestor('tools', [extraEntry('tools/hooks/')])).toBe(true);
    expect(protectedEntryFor('.git/commondir')?.runs).toMatch(/hooks and config/);
  });

  it('takes extra entries from the settings', () => {
    const entries = [...PROTECTED_FILES, extraEntry('tools/hooks/'), extraEntry('Justfile')];
    expect(protectedEntryFor('tools/hooks/x.sh', entries)?.tree).toBe(true);
    expect(protectedEntryFor('justfile', entries)?.path).toBe('Justfile');
    expect(protectedEntryFor('tools/other', entries)).toBeNull();
  });
});

describe('protected resolved paths', () => {
  it('judges a path inside the session folder at any depth, and a linked git dir as .git', () => {
    const scope = { root: '/p', gitDirs: ['/repos/main.git'] };
    expect(protectedEntryForReal('/p/sub/.vscode/tasks.json', scope)?.path).toBe('.vscode');
    expect(protectedEntryForReal('/p/.git/hooks/pre-commit', scope)?.path).toBe('.git/hooks');
    expect(protectedEntryForReal('/repos/main.git/hooks/post-checkout', scope)?.path).toBe(
      '.git/hooks',
    );
    expect(protectedEntryForReal('/repos/main.git/config', scope)?.path).toBe('.git/config');
    expect(protectedEntryForReal('/repos/main.git/objects/ab', scope)).toBeNull();
    expect(protectedEntryForReal('/p/package.json', scope)).toBeNull();
  });

  it('outside the folder, a protected name anywhere in the path counts', () => {
    const scope = { root: '/p' };
    expect(protectedEntryForReal('/other/.git/hooks/x', scope)?.path).toBe('.git/hooks');
    expect(protectedEntryForReal('/home/u/.claude/settings.json', scope)?.path).toBe('.claude');
    expect(protectedEntryForReal('/home/u/.bashrc', scope)).toBeNull();
  });
});

/** The entry as first matched: its globs tried on the whole rest of the path at every depth. */
function referenceEntryFor(
  relative: string,
  entries: readonly ProtectedEntry[],
  anyDepth: boolean,
): ProtectedEntry | null {
  const segments = relative.split('/').filter((part) => part !== '' && part !== '.');
  const options = { dot: true, nocase: true, windows: false };
  for (let start = 0; start < (anyDepth ? segments.length : 1); start += 1) {
    const tail = segments.slice(start).join('/');
    if (tail === '') break;
    for (const entry of entries) {
      const globs = entry.tree ? [entry.path, `${entry.path}/**`] : [entry.path];
      if (picomatch.isMatch(tail, globs, options)) return entry;
    }
  }
  return null;
}

describe('protected files in a long path', () => {
  it('match as the globs do on the whole rest of the path, at any depth', () => {
    const entries = [
      ...PROTECTED_FILES,
      ...['tools/hooks/', 'Tools/**', 'cfg/*.json', '.tool-config.json', 'ÄRGER/', '**'].map(
        extraEntry,
      ),
    ];
    const names = [
      '.git',
      '.GIT',
      'hooks',
      'config',
      'src',
      '.vscode',
      'tasks.json',
      '.yarnrc',
      '.yarnrc.yml',
      'tools',
      'cfg',
      'a.json',
      'ärger',
      '.claude',
      'x',
      '.husky',
      'info',
    ];
    let state = 7;
    const pick = (n: number): number => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state % n;
    };
    for (let i = 0; i < 3_000; i++) {
      const path = Array.from({ length: 1 + pick(6) }, () => names[pick(names.length)]).join('/');
      // Without the entry that matches everything; and with a glob first that also matches `.git/hooks`.
      const list = [entries, entries.slice(0, -1), [extraEntry('*/hooks/'), ...entries]][i % 3]!;
      for (const anyDepth of [false, true]) {
        expect({ path, anyDepth, entry: protectedEntryFor(path, list, anyDepth)?.path }).toEqual({
          path,
          anyDepth,
          entry: referenceEntryFor(path, list, anyDepth)?.path,
        });
      }
    }
  });
});
