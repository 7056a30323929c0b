import { describe, expect, it } from 'vitest';
import { PREVIEW_LIMITS } from '../../../shared/preview';
import { PROTECTED_FILES } from '../rules/protected-files';
import type { LayerChange } from '../sandbox/scratch-layer';
import { effectsOf, placeOf, withRefusedWrites, type PlaceRules } from './effects';

const rules: PlaceRules = {
  roots: ['/home/u/project', '/home/u/.gemini'],
  entries: PROTECTED_FILES,
  state: [{ path: '/home/u/.gemini/settings.json', tree: false }],
};

const change = (
  path: string,
  kind: LayerChange['change'],
  layer = '/home/u/project',
): LayerChange => ({
  path,
  change: kind,
  entry: 'file',
  size: 3,
  layer,
});

describe('where a change lands', () => {
  it('tells a root, outside every root, and a protected file inside one apart', () => {
    expect(placeOf('/home/u/project/src/a.c', rules)).toBe('root');
    expect(placeOf('/home/u/.bashrc', rules)).toBe('outside');
    expect(placeOf('/home/u/project/.git/hooks/pre-commit', rules)).toBe('protected');
    expect(placeOf('/home/u/project/packages/a/.vscode/tasks.json', rules)).toBe('protected');
    expect(placeOf('/home/u/.gemini/settings.json', rules)).toBe('protected');
    expect(placeOf('/home/u/.gemini/tmp/chat.json', rules)).toBe('root');
  });

  it('folds a paired removal into a rename, puts the dangerous first, counts all', () => {
    const from = change('/home/u/project/a.txt', 'deleted');
    const to = change('/home/u/project/b.txt', 'created');
    const hook = change('/home/u/project/.git/hooks/post-merge', 'created');
    const rc = change('/home/u/.profile', 'modified', '/home/u');
    const changes = [from, to, hook, rc];
    const effects = effectsOf(
      { changes, totals: { created: 2, modified: 1, deleted: 1 } },
      new Map([[to, from]]),
      rules,
    );
    expect(effects.changes.map((c) => [c.path, c.change, c.place])).toEqual([
      ['/home/u/project/.git/hooks/post-merge', 'created', 'protected'],
      ['/home/u/.profile', 'modified', 'outside'],
      ['/home/u/project/b.txt', 'renamed', 'root'],
    ]);
    expect(effects.changes[2]!.oldPath).toBe('/home/u/project/a.txt');
    expect(effects.counts).toEqual({
      created: 1,
      modified: 1,
      deleted: 0,
      renamed: 1,
      outside: 1,
      protected: 1,
    });
  });

  it('counts what the layer found past what it listed, and lists no more than the bound', () => {
    const changes = Array.from({ length: 300 }, (_, i) =>
      change(`/home/u/project/f${i}`, 'deleted'),
    );
    const effects = effectsOf(
      { changes, totals: { created: 0, modified: 0, deleted: 5000 } },
      new Map(),
      rules,
    );
    expect(effects.changes).toHaveLength(PREVIEW_LIMITS.changes);
    expect(effects.counts.deleted).toBe(5000);
  });

  it('adds the writes the read-only system refused outside the roots, once each', () => {
    const effects = effectsOf(
      { changes: [], totals: { created: 0, modified: 0, deleted: 0 } },
      new Map(),
      rules,
    );
    const output =
      'sh: 1: cannot create /etc/cron.d/job: Read-only file system\nsh: 1: cannot create /etc/cron.d/job: Read-only file system\n';
    const withRefused = withRefusedWrites(effects, output, rules);
    expect(withRefused.changes.map((c) => [c.path, c.place])).toEqual([
      ['/etc/cron.d/job', 'outside'],
    ]);
    expect(withRefused.counts).toMatchObject({ modified: 1, outside: 1 });
  });
});
