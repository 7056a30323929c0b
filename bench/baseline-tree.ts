// An earlier commit of this repository checked out beside the working tree, to measure what a change
// costs against the code before it in the same run: both are imported into one process and
// alternated, so load and noise fall on both alike. The checkout borrows this tree's node_modules.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface BaselineTree {
  /** The checkout's root. */
  root: string;
  commit: string;
  remove(): void;
}

/** A detached checkout of `commit`, or a reason why there is none (no git, a shallow clone). */
export function checkoutBaseline(commit: string): BaselineTree | { skipped: string } {
  const repo = resolve('.');
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();
  let full: string;
  try {
    full = git('rev-parse', '--verify', `${commit}^{commit}`);
  } catch {
    return { skipped: `commit ${commit} is not in this clone (a shallow clone?)` };
  }
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-baseline-'));
  try {
    git('worktree', 'add', '--detach', '--force', root, full);
    if (!existsSync(join(root, 'node_modules')))
      symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    return { skipped: `git worktree failed: ${(error as Error).message.split('\n')[0]}` };
  }
  return {
    root,
    commit: full,
    remove() {
      try {
        git('worktree', 'remove', '--force', root);
      } catch {
        rmSync(root, { recursive: true, force: true });
        git('worktree', 'prune');
      }
    },
  };
}
