// Protected files in the rule layer: asked whatever the mode or rule, judged by the resolved path,
// in a linked git dir (worktree) too, for a command's redirects as for an edit's paths.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, grantFromRequest, initShellParser, type PermissionMode, type Rule } from '.';
import { facts, NOW } from './helpers.test-support';

let base: string;
let worktree: string;
let common: string;
beforeAll(async () => {
  await initShellParser();
  // A worktree: its `.git` is a file naming its git dir, whose `commondir` names the shared one.
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-protected-')));
  worktree = path.join(base, 'wt');
  common = path.join(base, 'main.git');
  const gitDir = path.join(common, 'worktrees', 'wt');
  fs.mkdirSync(path.join(common, 'hooks'), { recursive: true });
  fs.mkdirSync(gitDir, { recursive: true });
  fs.mkdirSync(worktree);
  fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${gitDir}\n`);
  fs.writeFileSync(path.join(gitDir, 'commondir'), '../..\n');
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const judge = (paths: string[], mode: PermissionMode, rules: Rule[] = [], command?: string) =>
  evaluate(
    facts({
      sessionCwd: worktree,
      toolKind: command ? 'execute' : 'edit',
      paths,
      ...(command ? { command } : {}),
    }),
    { mode, rules, grants: [], now: NOW },
  );

describe('protected writes in the rule layer', () => {
  it('asks under Bypass and acceptEdits, naming what runs the file', () => {
    for (const mode of ['bypassPermissions', 'acceptEdits'] as const) {
      const evaluation = judge(['.envrc'], mode);
      expect(evaluation).toMatchObject({ verdict: 'ask', protectedWrite: true });
      expect(evaluation.reason).toContain('direnv runs this file');
    }
    expect(judge(['package.json'], 'acceptEdits').verdict).toBe('allow');
  });

  it("asks for the shared git dir's hooks that a worktree's .git file leads to", () => {
    const hook = path.join(common, 'hooks', 'pre-commit');
    expect(judge([hook], 'bypassPermissions').verdict).toBe('ask');
    expect(judge([path.join(common, 'description')], 'bypassPermissions').verdict).toBe('allow');
  });

  it("asks for a command's redirect into a protected file; a deny rule still denies", () => {
    expect(judge([], 'bypassPermissions', [], 'echo x > .vscode/tasks.json').verdict).toBe('ask');
    const deny: Rule = { id: 'no', action: 'deny', path: '.envrc' };
    expect(judge(['.envrc'], 'bypassPermissions', [deny]).verdict).toBe('deny');
  });

  it('is never remembered as a grant', () => {
    const result = grantFromRequest(
      facts({ sessionCwd: worktree, toolKind: 'edit', paths: ['.mcp.json'] }),
      { scope: 'session', sessionId: 'session-1', agentId: 'agent-a', now: NOW },
    );
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('protected file') });
  });
});
