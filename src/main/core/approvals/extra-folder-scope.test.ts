// An allow for "this project" in a session that also works in folders the person added to it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../shared/domain';
import type { Grant, Rule } from '../../../shared/rules';
import { initShellParser } from '../rules';
import { GrantBook } from './grant-book';
import { createRulesGate } from './rules-gate';
import type { SessionContext } from './session-context';

beforeAll(() => initShellParser());

const CWD = '/work/app';
const LIB = '/work/lib';
const edit = (path: string) =>
  ({
    requestId: '0190a000-0000-7000-8000-000000000000',
    agentId: 'agent',
    sessionId: 's1',
    toolCall: {
      toolCallId: 't',
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [],
    },
    diffs: [],
    options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  }) as unknown as PendingApproval;
const run = (command: string) =>
  ({
    ...edit('x'),
    toolCall: { toolCallId: 't', kind: 'execute', title: command, locations: [], content: [] },
    command: { command, cwd: CWD, source: 'title' },
  }) as unknown as PendingApproval;
const session = (additionalDirectories: string[] = [LIB]): SessionContext => {
  const known: Partial<SessionContext> = {
    sessionId: 's1',
    agentId: 'agent',
    cwd: CWD,
    additionalDirectories,
    mode: 'default',
  };
  return known as SessionContext;
};

const projectGrant: Grant = {
  id: 'g-project',
  agentId: 'agent',
  scope: 'project',
  projectRoot: CWD,
  toolKind: 'edit',
  paths: [`${LIB}/a.txt`],
  createdAt: 0,
};
const agentGrant: Grant = {
  ...projectGrant,
  id: 'g-agent',
  scope: 'agent',
  paths: [`${LIB}/b.txt`],
};
delete (agentGrant as Partial<Grant>).projectRoot;
const grants = new GrantBook(
  { listGrants: async () => [], saveGrant: async () => {}, revokeGrant: async () => {} } as never,
  () => 1,
  undefined,
  [{ grant: projectGrant }, { grant: agentGrant }],
);
const gate = (rules: Rule[]) => createRulesGate({ rules: () => rules, grants, now: () => 1 });

const projectEdits: Rule = { id: 'app-edits', action: 'allow', toolKind: 'edit', project: CWD };
const libByPath: Rule = {
  id: 'lib-docs',
  action: 'allow',
  toolKind: 'edit',
  path: `${LIB}/docs/**`,
};
const projectTests: Rule = { id: 'app-tests', action: 'allow', command: 'npm test', project: CWD };

describe('an allow for the project, in a session with an additional folder', () => {
  it('a project rule allows in the session folder, not in the folder added to this session', () => {
    expect(gate([projectEdits])(edit(`${CWD}/src/a.ts`), session())).toMatchObject({
      verdict: 'allow',
    });
    const inLib = gate([projectEdits])(edit(`${LIB}/src/a.ts`), session());
    expect(inLib).toMatchObject({ verdict: 'ask' });
    expect(inLib.reason).toMatch(/not the additional folder \/work\/lib: a person decides$/);
    // Without the folder in this session, the rule is what it always was.
    expect(gate([projectEdits])(edit(`${LIB}/src/a.ts`), session([]))).toMatchObject({
      verdict: 'allow',
    });
  });

  it('a path rule naming the folder allows there, as anywhere', () => {
    expect(gate([libByPath])(edit(`${LIB}/docs/x.md`), session())).toMatchObject({
      verdict: 'allow',
      decider: { type: 'rule', ruleId: 'lib-docs' },
    });
  });

  it('a grant kept for the project asks there; one kept for the agent allows', () => {
    expect(gate([])(edit(`${LIB}/a.txt`), session())).toMatchObject({ verdict: 'ask' });
    expect(gate([])(edit(`${LIB}/b.txt`), session())).toMatchObject({
      verdict: 'allow',
      decider: { type: 'grant', grantId: 'g-agent' },
    });
  });

  it('a command a project rule allows asks unless a finished preview shows it stays out', () => {
    expect(gate([projectTests])(run('npm test'), session())).toMatchObject({ verdict: 'ask' });
    expect(gate([projectTests])(run('npm test'), session([]))).toMatchObject({ verdict: 'allow' });
    const previewed = (changed: string[]) =>
      ({
        ...run('npm test'),
        preview: {
          state: 'done',
          counts: {
            created: changed.length,
            modified: 0,
            deleted: 0,
            renamed: 0,
            outside: 0,
            protected: 0,
          },
          changes: changed.map((path) => ({ path, change: 'created' })),
        },
      }) as unknown as PendingApproval;
    expect(gate([projectTests])(previewed([`${CWD}/out.txt`]), session())).toMatchObject({
      verdict: 'allow',
    });
    expect(gate([projectTests])(previewed([`${LIB}/out.txt`]), session())).toMatchObject({
      verdict: 'ask',
    });
  });
});
