import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extraEntry, PROTECTED_FILES } from '../rules/protected-files';
import { planProtectedMounts, scanProtected, type FoundPath } from './protected-mounts';

const root = '/p';
const at = (rel: string, kind: FoundPath['kind'], base = root): FoundPath => ({
  path: `${base}/${rel}`,
  rel,
  kind,
  root: base,
});

describe('planProtectedMounts', () => {
  it('binds what exists read-only and the folders on the way onto themselves', () => {
    const plan = planProtectedMounts([
      at('.git', 'dir'),
      at('.git/hooks', 'dir'),
      at('.git/config', 'file'),
      at('.vscode', 'dir'),
      at('.envrc', 'file'),
    ]);
    expect(plan).toEqual({
      anchors: ['/p/.git'],
      readOnly: ['/p/.envrc', '/p/.vscode', '/p/.git/config', '/p/.git/hooks'],
    });
  });

  it('matches names without regard to case', () => {
    const plan = planProtectedMounts([
      at('.VSCode', 'dir'),
      at('.Git', 'dir'),
      at('.Git/HOOKS', 'dir'),
    ]);
    expect(plan.readOnly).toEqual(['/p/.VSCode', '/p/.Git/HOOKS']);
    expect(plan.anchors).toEqual(['/p/.Git']);
  });

  it('anchors a .git without hooks, so that it cannot be swapped for another', () => {
    expect(planProtectedMounts([at('.git', 'dir')])).toEqual({
      anchors: ['/p/.git'],
      readOnly: [],
    });
  });

  it('leaves links to the watch: a bind would follow them', () => {
    expect(planProtectedMounts([at('.envrc', 'link'), at('.claude', 'link')])).toEqual({
      anchors: [],
      readOnly: [],
    });
  });

  it('binds a .git file read-only (it names where hooks come from), and a gitdir inside a root', () => {
    const plan = planProtectedMounts([
      at('.git', 'file', '/w/wt'),
      {
        path: '/w/main/.git/worktrees/wt/commondir',
        rel: '.git/commondir',
        kind: 'file',
        root: '/w',
      },
      { path: '/w/main/.git/hooks', rel: '.git/hooks', kind: 'dir', root: '/w' },
      { path: '/w/main/.git/config', rel: '.git/config', kind: 'file', root: '/w' },
    ]);
    expect(plan.readOnly).toEqual([
      '/w/wt/.git',
      '/w/main/.git/config',
      '/w/main/.git/hooks',
      '/w/main/.git/worktrees/wt/commondir',
    ]);
    expect(plan.anchors).toEqual([
      '/w/main',
      '/w/main/.git',
      '/w/main/.git/worktrees',
      '/w/main/.git/worktrees/wt',
    ]);
  });

  it('takes extra entries, and binds nothing twice', () => {
    const entries = [
      ...PROTECTED_FILES,
      extraEntry('tools/hooks/'),
      extraEntry('tools/hooks/a.sh'),
    ];
    const plan = planProtectedMounts(
      [at('tools', 'dir'), at('tools/hooks', 'dir'), at('tools/hooks/a.sh', 'file')],
      entries,
    );
    expect(plan).toEqual({ anchors: ['/p/tools'], readOnly: ['/p/tools/hooks'] });
  });

  it('ignores what is neither protected nor on the way (sockets, fifos)', () => {
    expect(planProtectedMounts([at('.envrc', 'other')])).toEqual({ anchors: [], readOnly: [] });
  });
});

describe('scanProtected', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folder = (): string => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-protected-')));
    made.push(dir);
    return dir;
  };

  it('lists the root and .git, and follows a worktree’s gitdir and commondir inside a root', async () => {
    const base = folder();
    const main = join(base, 'main');
    mkdirSync(join(main, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, '.git', 'config'), '[core]\n');
    writeFileSync(join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    const wt = join(base, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    mkdirSync(join(wt, '.VSCODE'));
    symlinkSync('/etc/hostname', join(wt, '.envrc'));
    writeFileSync(join(wt, 'package.json'), '{}');

    const scan = await scanProtected([wt, base]);
    const rels = scan.found.map((f) => `${f.rel}:${f.kind}:${f.path.slice(base.length)}`).sort();
    expect(rels).toEqual([
      '.VSCODE:dir:/wt/.VSCODE',
      '.envrc:link:/wt/.envrc',
      '.git/commondir:file:/main/.git/worktrees/wt/commondir',
      '.git/config:file:/main/.git/config',
      '.git/hooks:dir:/main/.git/hooks',
      '.git:file:/wt/.git',
    ]);
    expect(scan.watch.map((w) => `${w.rel}:${w.dir.slice(base.length)}`)).toEqual([
      ':/wt',
      '.git:/main/.git/worktrees/wt',
      '.git:/main/.git',
      ':',
    ]);
    const plan = planProtectedMounts(scan.found);
    expect(plan.readOnly).toContain(join(main, '.git', 'hooks'));
    expect(plan.anchors).toContain(join(main, '.git'));
  });

  it('does not follow a gitdir outside every root', async () => {
    const base = folder();
    const other = folder();
    mkdirSync(join(other, 'hooks'));
    writeFileSync(join(base, '.git'), `gitdir: ${other}\n`);
    const scan = await scanProtected([base]);
    expect(scan.found.map((f) => f.rel)).toEqual(['.git']);
  });
});
