// The watch on a real folder (no sandbox needed): what appears is moved, Gatehouse's own writes
// stay until something else changes them, and nothing outside the protected list is touched.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeInside } from '../agents/fs-access';
import { PROTECTED_FILES } from '../rules/protected-files';
import { planProtectedMounts, scanProtected } from './protected-mounts';
import { watchProtected, type ProtectedMove, type ProtectedWatch } from './protected-watch';

const made: string[] = [];
const watches: ProtectedWatch[] = [];
afterEach(() => {
  for (const watch of watches.splice(0)) watch.close();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project (with a .git folder unless told otherwise) under a watch; what it moved so far. */
async function watched({ gitFolder = true } = {}): Promise<{
  base: string;
  project: string;
  quarantine: string;
  moves: ProtectedMove[];
}> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-watch-')));
  made.push(base);
  const project = join(base, 'project');
  mkdirSync(gitFolder ? join(project, '.git') : project, { recursive: true });
  const quarantine = join(base, 'quarantine');
  const scan = await scanProtected([project]);
  const moves: ProtectedMove[] = [];
  watches.push(
    watchProtected({
      scan,
      mounts: planProtectedMounts(scan.found),
      entries: PROTECTED_FILES,
      quarantineDir: quarantine,
      onMove: (move) => moves.push(move),
    }),
  );
  return { base, project, quarantine, moves };
}

describe('watchProtected', () => {
  it('moves a protected path that appears, keeping its content, and leaves the rest', async () => {
    const { project, quarantine, moves } = await watched();
    writeFileSync(join(project, 'notes.txt'), 'mine\n');
    writeFileSync(join(project, '.envrc'), 'touch /tmp/x\n');
    mkdirSync(join(project, '.git', 'hooks'));
    await expect.poll(() => moves.map((m) => m.entry).sort()).toEqual(['.envrc', '.git/hooks']);
    const envrc = moves.find((m) => m.entry === '.envrc')!;
    expect(envrc.path).toBe(join(project, '.envrc'));
    expect(envrc.movedTo!.startsWith(quarantine)).toBe(true);
    expect(readFileSync(envrc.movedTo!, 'utf8')).toBe('touch /tmp/x\n');
    expect(existsSync(join(project, '.envrc'))).toBe(false);
    expect(existsSync(join(project, '.git', 'hooks'))).toBe(false);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('keeps what Gatehouse wrote for a decision, and moves it once something else changes it', async () => {
    const { project, moves } = await watched();
    const tasks = join(project, '.vscode', 'tasks.json');
    await writeInside(project, tasks, '{"tasks":[]}\n');
    // A later path in the same folder is judged after the write's: once it is moved, the write was judged.
    writeFileSync(join(project, '.mcp.json'), '{}');
    await expect.poll(() => moves.map((m) => m.entry)).toContain('.mcp.json');
    expect(readFileSync(tasks, 'utf8')).toBe('{"tasks":[]}\n');

    // Beside Gatehouse's file, in the folder it made: only the newcomer goes.
    writeFileSync(join(project, '.vscode', 'settings.json'), '{"x":1}');
    await expect
      .poll(() => moves.map((m) => m.path))
      .toContain(join(project, '.vscode', 'settings.json'));
    expect(existsSync(tasks)).toBe(true);

    writeFileSync(tasks, '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n');
    await expect.poll(() => moves.map((m) => m.path)).toContain(tasks);
    expect(existsSync(tasks)).toBe(false);
  });

  it('a .git file or link made where git looks is moved: it would send git elsewhere', async () => {
    const { base, project, moves } = await watched({ gitFolder: false });
    writeFileSync(join(project, '.git'), `gitdir: ${join(base, 'evil')}\n`);
    await expect.poll(() => moves.map((m) => m.entry)).toEqual(['.git']);
    expect(moves[0]!.runs).toMatch(/hooks and config/);
    expect(existsSync(join(project, '.git'))).toBe(false);
  });
});
