// A tree an agent made hard to remove (folders without write, read or search permission for their
// owner) is removed whole by a process without privilege, as a person's is; a link in it is
// removed, never followed.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from './remove-tree';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    spawnSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * removeTree(target) in a process that holds no capability: root's would let it pass any
 * permission, as a person's process does not (setpriv empties the bounding set before exec).
 */
function removeWithoutPrivilege(target: string): { status: number | null; stderr: string } {
  const source = resolve('src/main/core/fs/remove-tree.ts');
  const script = `const { removeTree } = await import(${JSON.stringify(source)}); await removeTree(process.argv[1]);`;
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script, target];
  const asRoot = process.getuid?.() === 0;
  const [command, ...args] = asRoot
    ? ['setpriv', '--bounding-set=-all', '--inh-caps=-all', '--', ...node]
    : node;
  const ran = spawnSync(command!, args, { encoding: 'utf8' });
  return { status: ran.status, stderr: ran.stderr };
}

// The removal runs in a process of its own, started through a TypeScript loader: slower under a
// full run's load than the default bound of a unit test.
describe.skipIf(process.platform !== 'linux')('removeTree', { timeout: 60_000 }, () => {
  it('removes a tree whose folders an agent locked, and only through them', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gatehouse-remove-tree-'));
    dirs.push(base);
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'kept'), 'the person’s');
    const tree = join(base, 'tmp-left');
    mkdirSync(join(tree, 'locked', 'deeper'), { recursive: true });
    writeFileSync(join(tree, 'locked', 'deeper', 'cache.bin'), Buffer.alloc(4096));
    writeFileSync(join(tree, 'locked', 'file'), 'x');
    mkdirSync(join(tree, 'sealed'));
    writeFileSync(join(tree, 'sealed', 'file'), 'x');
    symlinkSync(outside, join(tree, 'locked', 'link'));
    chmodSync(join(tree, 'locked', 'deeper'), 0o555);
    chmodSync(join(tree, 'locked'), 0o555);
    chmodSync(join(tree, 'sealed'), 0o000);

    const { status, stderr } = removeWithoutPrivilege(tree);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(existsSync(tree)).toBe(false);
    expect(readdirSync(outside)).toEqual(['kept']);
  });

  it('is no error where nothing is', async () => {
    await expect(removeTree(join(tmpdir(), 'gatehouse-remove-tree-none', 'x'))).resolves.toBe(
      undefined,
    );
  });
});
