import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  initShellParser,
  type EvaluationState,
  type PermissionMode,
  type RequestFacts,
  type Rule,
} from '.';

/** The fixed rule set of the command table. */
export const TABLE_RULES: Rule[] = [
  { id: 'allow-ls', action: 'allow', command: 'ls' },
  { id: 'allow-git-status', action: 'allow', command: 'git status' },
  { id: 'allow-npm-test', action: 'allow', command: 'npm test' },
  { id: 'allow-npm-run-test', action: 'allow', command: 'npm run test:*' },
  { id: 'allow-cat', action: 'allow', command: 'cat' },
  { id: 'deny-rm-rf', action: 'deny', command: 'rm -rf' },
  { id: 'deny-curl', action: 'deny', command: 'curl' },
];

export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface Sandbox {
  /** Session folder (real path). */
  root: string;
  /** A folder outside the session folder (real path). */
  outside: string;
  cleanup(): void;
}

/**
 * A real session folder with symlinks:
 *   root/src/a.ts, root/src/.env, root/.git/hooks/, root/.github/workflows/ci.yml
 *   root/src/escape   -> outside/inner      (directory symlink out of the folder)
 *   root/src/dangling -> outside/new.txt    (dangling: writing it creates a file outside)
 *   root/src/inlink   -> root/src/a.ts      (symlink that stays inside)
 *   outside/inner/secret.txt
 */
export function makeSandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-rules-')));
  const root = path.join(base, 'session');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(root, '.github', 'workflows'), { recursive: true });
  fs.mkdirSync(path.join(outside, 'inner'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'x');
  fs.writeFileSync(path.join(root, 'src', '.env'), 'SECRET=1');
  fs.writeFileSync(path.join(root, '.github', 'workflows', 'ci.yml'), 'x');
  fs.writeFileSync(path.join(outside, 'inner', 'secret.txt'), 'x');
  fs.symlinkSync(path.join(outside, 'inner'), path.join(root, 'src', 'escape'));
  fs.symlinkSync(path.join(outside, 'new.txt'), path.join(root, 'src', 'dangling'));
  fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'src', 'inlink'));
  return { root, outside, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

export function facts(partial: Partial<RequestFacts> & { sessionCwd: string }): RequestFacts {
  return { agentId: 'agent-a', sessionId: 'session-1', ...partial };
}

/**
 * The shell parser and one sandbox for the calling test file, removed after it, with the evaluation
 * builders made in it. `box` is filled in before the file's first test, so its tests read
 * `box.root` as a plain object.
 */
export function evaluationFile() {
  const box = {} as Sandbox;
  beforeAll(async () => {
    await initShellParser();
    Object.assign(box, makeSandbox());
  });
  afterAll(() => box.cleanup());
  return { box, ...evaluationBuilders(box) };
}

/** An evaluation state and requests made in the sandbox `box` (read when each is built). */
function evaluationBuilders(box: Sandbox) {
  const state = (rules: Rule[], mode: PermissionMode = 'default'): EvaluationState => ({
    mode,
    rules,
    grants: [],
    now: NOW,
  });
  const req = (partial: Partial<RequestFacts>): RequestFacts =>
    facts({ sessionCwd: box.root, ...partial });
  const edit = (...paths: string[]): RequestFacts => req({ toolKind: 'edit', paths });
  const exec = (command: string): RequestFacts => req({ toolKind: 'execute', command });
  return { state, req, edit, exec };
}
