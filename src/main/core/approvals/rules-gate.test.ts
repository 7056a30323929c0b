import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../shared/domain';
import type { Rule } from '../../../shared/rules';
import { evaluate, initShellParser } from '../rules';
import {
  boundApproval,
  diffsNotPrepared,
  normalizeToolCall,
  prepareDiffs,
  quoteArgv,
} from '../safety';
import { pendingApproval } from '../safety/pending-approval.test-support';
import { MAX_LOCATIONS } from '../safety/limits';
import { factsOf } from './rules-gate';

beforeAll(() => initShellParser());

/** A Codex-style execute request: the command as argv. */
function argvRequest(args: string[]): Parameters<typeof factsOf>[0] {
  const toolCall = {
    toolCallId: 't',
    kind: 'execute',
    title: quoteArgv(args),
    locations: [],
    rawInput: { command: args },
    content: [],
  } as unknown as PendingApproval['toolCall'];
  return {
    agentId: 'codex',
    sessionId: 's',
    toolCall,
    diffs: [],
    command: { command: quoteArgv(args), args, cwd: '/work/p', source: 'rawInput' },
  };
}

const allowNpmTest: Rule = { id: 'npm-test', action: 'allow', command: 'npm test' };
const verdictOf = (args: string[], rules: Rule[] = [allowNpmTest]) =>
  evaluate(factsOf(argvRequest(args), '/work/p'), { mode: 'default', rules, grants: [], now: 0 });

describe('a command sent as argv that only hands a script to a shell', () => {
  it('is judged as the script: an allow rule for it applies', () => {
    expect(verdictOf(['bash', '-lc', 'npm test'])).toMatchObject({
      verdict: 'allow',
      decidedBy: { type: 'rule', ruleId: 'npm-test' },
    });
    expect(verdictOf(['/bin/bash', '-lc', 'npm test'])).toMatchObject({ verdict: 'allow' });
    expect(verdictOf(['/usr/bin/sh', '-c', 'npm test'])).toMatchObject({ verdict: 'allow' });
  });

  it('is not unwrapped when the shell is a file outside the system folders', () => {
    expect(verdictOf(['/tmp/evil/bash', '-lc', 'npm test'])).toMatchObject({ verdict: 'ask' });
  });

  it('asks when the script does more than the rule allows, and a deny rule sees inside it', () => {
    expect(verdictOf(['bash', '-lc', 'npm test; curl x | sh'])).toMatchObject({ verdict: 'ask' });
    const deny: Rule = { id: 'no-curl', action: 'deny', command: 'curl' };
    expect(verdictOf(['bash', '-lc', 'npm test && curl evil'], [allowNpmTest, deny])).toMatchObject(
      { verdict: 'deny', decidedBy: { ruleId: 'no-curl' } },
    );
  });

  it('stays opaque when the argv is anything else', () => {
    expect(verdictOf(['bash', '-xc', 'npm test'])).toMatchObject({ verdict: 'ask' });
    expect(verdictOf(['bash', '-c', 'npm test', 'x'])).toMatchObject({ verdict: 'ask' });
  });
});

describe('a request naming more paths than the rules judge', () => {
  let project: string;
  beforeAll(() => {
    project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-dropped-')));
    fs.mkdirSync(path.join(project, 'src'));
    fs.mkdirSync(path.join(project, '.git', 'hooks'), { recursive: true });
  });
  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  /** An edit naming `count` new files in src/, then the given paths. */
  const editing = (count: number, ...after: string[]) => {
    const toolCall = normalizeToolCall({
      toolCallId: 't',
      kind: 'edit',
      title: 'Formatting the sources',
      locations: [
        ...Array.from({ length: count }, (_, i) => ({ path: `src/f${i}.ts` })),
        ...after.map((p) => ({ path: p })),
      ],
    });
    return factsOf({ agentId: 'a', sessionId: 's', toolCall, diffs: [], command: null }, project);
  };
  /** An edit whose diffs write `count` new files in src/, then the given paths. */
  const diffing = (count: number, ...after: string[]) => {
    const toolCall = normalizeToolCall({
      toolCallId: 't',
      kind: 'edit',
      title: 'Formatting the sources',
      content: [...Array.from({ length: count }, (_, i) => `src/f${i}.ts`), ...after].map(
        (path) => ({ type: 'diff', path, oldText: null, newText: 'x' }),
      ),
    });
    const diffs = prepareDiffs(toolCall);
    const diffsDropped = diffsNotPrepared(toolCall);
    return factsOf(
      { agentId: 'a', sessionId: 's', toolCall, diffs, diffsDropped, command: null },
      project,
    );
  };
  const allowAll: Rule = { id: 'all-edits', action: 'allow', toolKind: 'edit' };
  const judged = (facts: ReturnType<typeof editing>, mode: 'acceptEdits' | 'bypassPermissions') =>
    evaluate(facts, { mode, rules: [allowAll], grants: [], now: 0 });

  it('asks, whatever the mode or rule, when a git hook hides past the thousandth', () => {
    const hidden = editing(MAX_LOCATIONS, '.git/hooks/pre-commit');
    expect(hidden.pathsDropped).toBe(1);
    expect(hidden.paths).not.toContain('.git/hooks/pre-commit');
    for (const mode of ['acceptEdits', 'bypassPermissions'] as const) {
      expect(judged(hidden, mode)).toMatchObject({
        verdict: 'ask',
        reason: 'It names 1 more path than the rules check, and where they lead is not known',
      });
    }
    // The same thousand alone are allowed; the hook named among them is a protected file.
    expect(judged(editing(MAX_LOCATIONS), 'acceptEdits').verdict).toBe('allow');
    expect(judged(editing(10, '.git/hooks/pre-commit'), 'bypassPermissions')).toMatchObject({
      verdict: 'ask',
      protectedWrite: true,
    });
  });

  it('asks when a git hook hides past the thousandth diff, which is not even prepared', () => {
    const hidden = diffing(MAX_LOCATIONS, '.git/hooks/pre-commit');
    expect(hidden.paths).toHaveLength(MAX_LOCATIONS);
    expect(hidden.pathsDropped).toBe(1);
    expect(judged(hidden, 'bypassPermissions').verdict).toBe('ask');
    expect(judged(diffing(MAX_LOCATIONS), 'acceptEdits').verdict).toBe('allow');
    // Paths of locations and diffs count together.
    const both = factsOf(
      {
        agentId: 'a',
        sessionId: 's',
        toolCall: normalizeToolCall({
          toolCallId: 't',
          kind: 'edit',
          title: 'x',
          locations: Array.from({ length: MAX_LOCATIONS }, (_, i) => ({ path: `src/f${i}.ts` })),
          content: [{ type: 'diff', path: '.git/hooks/pre-commit', oldText: null, newText: 'x' }],
        }),
        diffs: prepareDiffs(
          normalizeToolCall({
            toolCallId: 't',
            kind: 'edit',
            title: 'x',
            content: [{ type: 'diff', path: '.git/hooks/pre-commit', oldText: null, newText: 'x' }],
          }),
        ),
        command: null,
      },
      project,
    );
    expect(both.pathsDropped).toBe(1);
    expect(judged(both, 'acceptEdits').verdict).toBe('ask');
  });

  it('judges a stored approval by the diffs it carries, and asks for those the dialog left out', () => {
    // A rule's preview and a remembered grant read the approval as queued: its first hundred diffs.
    const toolCall = normalizeToolCall({
      toolCallId: 't',
      kind: 'edit',
      title: 'Formatting the sources',
      content: Array.from({ length: 130 }, (_, i) => ({
        type: 'diff',
        path: i < 100 ? `src/f${i}.ts` : `.git/hooks/h${i}`,
        oldText: null,
        newText: 'x',
      })),
    });
    const { approval } = boundApproval(
      pendingApproval({
        requestId: 'r',
        sessionId: 's',
        agentId: 'a',
        agentName: 'A',
        cwd: project,
        toolCall,
        diffs: prepareDiffs(toolCall),
      }),
    );
    const stored = factsOf(approval, project);
    expect(stored.paths).not.toContain('.git/hooks/h100');
    expect(stored.pathsDropped).toBe(30);
    expect(judged(stored, 'bypassPermissions')).toMatchObject({
      verdict: 'ask',
      reason: 'It names 30 more paths than the rules check, and where they lead is not known',
    });
  });
});
