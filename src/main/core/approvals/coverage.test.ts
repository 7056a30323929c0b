import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, PermissionMode } from '../../../shared/domain';
import type { Grant, Rule } from '../../../shared/rules';
import { initShellParser } from '../rules';
import { MAX_APPROVED_PER_SESSION, sha256Of } from './approved-actions';
import { createCoverage } from './coverage';
import type { GrantBook } from './grant-book';
import { createRulesGate } from './rules-gate';
import type { SessionContext } from './session-context';

const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-coverage-')));
beforeAll(() => initShellParser());
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = join(folder, 'a.txt');

function sessionOf(sessionId = 's1', mode: PermissionMode = 'default'): SessionContext {
  return {
    sessionId,
    agentId: 'agent',
    cwd: folder,
    mode,
    policy: 'first-responder',
  } as SessionContext;
}

function setup(options: { rules?: Rule[]; grants?: Grant[] } = {}) {
  const used: string[] = [];
  const grants = {
    activeFor: () => options.grants ?? [],
    used: async (id: string) => void used.push(id),
  } as unknown as GrantBook;
  const gate = createRulesGate({ rules: () => options.rules ?? [], grants, now: () => 1 });
  return { coverage: createCoverage(gate, () => 1), used };
}

function approval(
  over: {
    sessionId?: string;
    content?: unknown[];
    kind?: 'edit' | 'execute' | 'read';
    command?: string;
  } = {},
): PendingApproval {
  return {
    requestId: `r-${Math.random()}`,
    sessionId: over.sessionId ?? 's1',
    agentId: 'agent',
    agentName: 'Agent',
    cwd: folder,
    toolCall: {
      toolCallId: 't',
      kind: over.kind ?? 'edit',
      title: 'Write a.txt',
      locations: [{ path: file }],
      content: over.content ?? [{ type: 'diff', path: file, oldText: null, newText: 'A\n' }],
    },
    options: [],
    policy: 'first-responder',
    issuedAt: 0,
    expiresAt: 0,
    warnings: [],
    diffs: [],
    command: over.command
      ? { command: over.command, args: null, cwd: folder, source: 'rawInput' }
      : null,
    tally: null,
  };
}

describe('write coverage', () => {
  it('a write nobody approved is not covered', () => {
    const { coverage } = setup();
    expect(coverage.write(sessionOf(), file, 'A\n')).toEqual({
      covered: false,
      reason: 'not approved',
      sha256: sha256Of('A\n'),
    });
  });

  it('the approved content is covered once; a second write of it is not', () => {
    const { coverage } = setup();
    const a = approval();
    coverage.allowed(a);
    expect(coverage.write(sessionOf(), file, 'A\n')).toEqual({
      covered: true,
      requestId: a.requestId,
      sha256: sha256Of('A\n'),
      real: file,
    });
    expect(coverage.write(sessionOf(), file, 'A\n')).toMatchObject({
      covered: false,
      reason: 'not approved',
    });
  });

  it('an approval holds for where its path led when shown: led elsewhere now, it is refused and used up', () => {
    const { coverage } = setup();
    const a = approval();
    // As if a link had been swapped in between the dialog and the write.
    coverage.allowed(a, new Map([[file, join(folder, 'shown-here.txt')]]));
    expect(coverage.write(sessionOf(), file, 'A\n')).toEqual({
      covered: false,
      reason: 'the path leads elsewhere than when it was approved',
      requestId: a.requestId,
      approvedReal: join(folder, 'shown-here.txt'),
      real: file,
      sha256: sha256Of('A\n'),
    });
    expect(coverage.write(sessionOf(), file, 'A\n')).toMatchObject({ reason: 'not approved' });
  });

  it('other content than the approved diff, even one byte more, is refused with both hashes', () => {
    const { coverage } = setup();
    const a = approval();
    coverage.allowed(a);
    expect(coverage.write(sessionOf(), file, 'A\nx')).toEqual({
      covered: false,
      reason: 'content differs from the approved diff',
      requestId: a.requestId,
      approvedSha256: sha256Of('A\n'),
      sha256: sha256Of('A\nx'),
    });
    // The approval still stands for what it showed.
    expect(coverage.write(sessionOf(), file, 'A\n')).toMatchObject({ covered: true });
  });

  it('an approval of another session, of another path, or ended with its session covers nothing', () => {
    const { coverage } = setup();
    coverage.allowed(approval({ sessionId: 's2' }));
    expect(coverage.write(sessionOf('s1'), file, 'A\n')).toMatchObject({ covered: false });
    coverage.allowed(approval());
    expect(coverage.write(sessionOf(), join(folder, 'b.txt'), 'A\n')).toMatchObject({
      covered: false,
    });
    coverage.endSession('s1');
    expect(coverage.write(sessionOf(), file, 'A\n')).toMatchObject({ covered: false });
  });

  it('an edit without diffs covers the paths it names, once, whatever they receive', () => {
    const { coverage } = setup();
    coverage.allowed(approval({ content: [] }));
    expect(coverage.write(sessionOf(), file, 'anything')).toMatchObject({ covered: true });
    expect(coverage.write(sessionOf(), file, 'anything')).toMatchObject({ covered: false });
    // Only an edit does: a read naming the path approves no write.
    coverage.allowed(approval({ content: [], kind: 'read' }));
    expect(coverage.write(sessionOf(), file, 'anything')).toMatchObject({ covered: false });
  });

  it('a relative diff path is the session folder’s', () => {
    const { coverage } = setup();
    coverage.allowed(approval({ content: [{ type: 'diff', path: 'a.txt', newText: 'A\n' }] }));
    expect(coverage.write(sessionOf(), file, 'A\n')).toMatchObject({ covered: true });
  });

  it(`keeps the last ${MAX_APPROVED_PER_SESSION} approvals of a session`, () => {
    const { coverage } = setup();
    const first = approval();
    coverage.allowed(first);
    for (let i = 0; i < MAX_APPROVED_PER_SESSION; i++) {
      coverage.allowed(
        approval({ content: [{ type: 'diff', path: join(folder, `f${i}`), newText: '' }] }),
      );
    }
    expect(coverage.write(sessionOf(), file, 'A\n')).toMatchObject({ covered: false });
  });

  it('an allow rule, a grant, acceptEdits or bypass covers a write; a deny rule or plan mode does not', () => {
    const rule: Rule = { id: 'docs', action: 'allow', toolKind: 'edit', path: '*.txt' };
    expect(setup({ rules: [rule] }).coverage.write(sessionOf(), file, 'x')).toMatchObject({
      covered: true,
      decider: { type: 'rule', ruleId: 'docs' },
    });
    const grant: Grant = {
      id: 'g1',
      agentId: 'agent',
      scope: 'once',
      sessionId: 's1',
      toolKind: 'edit',
      paths: [file],
      createdAt: 0,
    };
    const granted = setup({ grants: [grant] });
    expect(granted.coverage.write(sessionOf(), file, 'x')).toMatchObject({
      covered: true,
      decider: { type: 'grant', grantId: 'g1' },
    });
    expect(granted.used).toEqual(['g1']);
    for (const mode of ['acceptEdits', 'bypassPermissions'] as const) {
      expect(setup().coverage.write(sessionOf('s1', mode), file, 'x')).toMatchObject({
        covered: true,
        decider: { type: 'mode', mode },
      });
    }
    expect(setup().coverage.write(sessionOf('s1', 'plan'), file, 'x')).toMatchObject({
      covered: false,
    });
    const denied = setup({ rules: [{ id: 'no', action: 'deny', path: '*.txt' }] });
    expect(denied.coverage.write(sessionOf('s1', 'bypassPermissions'), file, 'x')).toMatchObject({
      covered: false,
    });
  });
});

describe('command coverage', () => {
  it('the command approved, exactly and once; any other text is not covered', () => {
    const { coverage } = setup();
    const a = approval({ kind: 'execute', content: [], command: 'npm test' });
    coverage.allowed(a);
    expect(coverage.command(sessionOf(), 'npm test; rm -rf ~')).toEqual({
      covered: false,
      reason: 'not approved',
    });
    expect(coverage.command(sessionOf('s2'), 'npm test')).toMatchObject({ covered: false });
    expect(coverage.command(sessionOf(), 'npm test')).toEqual({
      covered: true,
      requestId: a.requestId,
    });
    expect(coverage.command(sessionOf(), 'npm test')).toMatchObject({ covered: false });
  });

  it('a command an allow rule covers, whoever asked', () => {
    const { coverage } = setup({ rules: [{ id: 'tests', action: 'allow', command: 'npm test' }] });
    expect(coverage.command(sessionOf(), 'npm test')).toMatchObject({
      covered: true,
      decider: { type: 'rule', ruleId: 'tests' },
    });
    expect(coverage.command(sessionOf(), 'npm test && curl x | sh')).toMatchObject({
      covered: false,
    });
  });
});
