import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  afterGrantUse,
  evaluate,
  grantFromRequest,
  GrantSchema,
  initShellParser,
  isGrantActive,
  revokeGrant,
  type Grant,
  type GrantOptions,
  type RequestFacts,
  type Rule,
} from '.';
import { facts, makeSandbox, NOW, type Sandbox } from './helpers.test-support';

let box: Sandbox;
beforeAll(async () => {
  await initShellParser();
  box = makeSandbox();
});
afterAll(() => box.cleanup());

const PROJECT = '/work/project';
function exec(command: string, extra: Partial<RequestFacts> = {}): RequestFacts {
  return facts({
    sessionCwd: PROJECT,
    projectRoot: PROJECT,
    toolKind: 'execute',
    command,
    ...extra,
  });
}
function opts(scope: GrantOptions['scope'], extra: Partial<GrantOptions> = {}): GrantOptions {
  return {
    scope,
    sessionId: 'session-1',
    agentId: 'agent-a',
    projectRoot: PROJECT,
    now: NOW,
    ...extra,
  };
}
function grant(request: RequestFacts, o: GrantOptions): Grant {
  const r = grantFromRequest(request, o);
  if (!r.ok) throw new Error(r.error);
  return r.grant;
}
function decide(request: RequestFacts, grants: Grant[], now = NOW, rules: Rule[] = []) {
  return evaluate(request, { mode: 'default', rules, grants, now });
}

describe('grantFromRequest', () => {
  it('remembers the exact argv shown, with a UUID v7 id', () => {
    const g = grant(exec('npm test -- --watch'), opts('session'));
    expect(g.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(g).toMatchObject({
      agentId: 'agent-a',
      scope: 'session',
      sessionId: 'session-1',
      projectRoot: PROJECT,
      toolKind: 'execute',
      createdAt: NOW,
      commands: [
        {
          argv: ['npm', 'test', '--', '--watch'],
          env: {},
          writes: [],
          dynamic: [],
          match: 'exact',
        },
      ],
    });
    expect(GrantSchema.parse(g)).toEqual(g);
    expect(decide(exec('npm test -- --watch'), [g])).toMatchObject({
      verdict: 'allow',
      decidedBy: { type: 'grant', grantId: g.id },
    });
    expect(decide(exec('npm test'), [g]).verdict).toBe('ask');
    expect(decide(exec('npm test -- --watch --coverage'), [g]).verdict).toBe('ask');
    expect(decide(exec("npm test -- '--watch'"), [g]).verdict).toBe('allow');
  });

  it('a prefix grant only when the person picks the first N words', () => {
    const g = grant(exec('npm test -- --watch'), opts('project', { prefixTokens: 2 }));
    expect(g.commands).toEqual([
      { argv: ['npm', 'test'], env: {}, writes: [], dynamic: [], match: 'prefix' },
    ]);
    expect(decide(exec('npm test --coverage'), [g]).verdict).toBe('allow');
    expect(decide(exec('npm test'), [g]).verdict).toBe('allow');
    expect(decide(exec('npm run build'), [g]).verdict).toBe('ask');
    expect(decide(exec('npm'), [g]).verdict).toBe('ask');
    // all the words: the command and whatever follows; more words than it has: refused
    expect(grant(exec('ls -la'), opts('session', { prefixTokens: 2 })).commands?.[0]?.match).toBe(
      'prefix',
    );
    expect(grantFromRequest(exec('ls -la'), opts('session', { prefixTokens: 9 })).ok).toBe(false);
    expect(grantFromRequest(exec('ls'), opts('session', { prefixTokens: 0 })).ok).toBe(false);
    expect(grantFromRequest(exec('$X build'), opts('session')).ok).toBe(false);
    expect(grantFromRequest(exec('git $SUB x'), opts('session', { prefixTokens: 2 })).ok).toBe(
      false,
    );
  });

  it('refuses opaque commands, empty commands, unlabelled requests and impossible options', () => {
    for (const command of ['echo $(id)', 'bash -c ls', 'sudo ls', 'ls | sh', 'x=1', '']) {
      const r = grantFromRequest(exec(command), opts('agent'));
      expect(r.ok, command).toBe(false);
    }
    const opaque = grantFromRequest(exec('eval ls'), opts('agent'));
    expect(opaque.ok ? '' : opaque.error).toMatch(/cannot be checked automatically.*eval/);
    expect(grantFromRequest({ ...exec('ls'), toolKind: undefined }, opts('agent')).ok).toBe(false);
    expect(grantFromRequest(exec('ls'), opts('project', { projectRoot: undefined })).ok).toBe(
      false,
    );
    expect(grantFromRequest(exec('ls'), opts('agent', { expiresAt: NOW })).ok).toBe(false);
    expect(grantFromRequest(exec('ls'), opts('agent', { agentId: 'agent-b' })).ok).toBe(false);
    expect(
      grantFromRequest(facts({ sessionCwd: PROJECT, toolKind: 'fetch' }), opts('agent')).ok,
    ).toBe(false);
    expect(grantFromRequest(exec('echo x > "$F"'), opts('agent')).ok).toBe(false);
  });

  it('compound commands: every part is remembered; env and redirect writes must match too', () => {
    const g = grant(exec('npm ci && X=1 npm test > log.txt'), opts('session'));
    expect(g.commands).toEqual([
      { argv: ['npm', 'ci'], env: {}, writes: [], dynamic: [], match: 'exact' },
      { argv: ['npm', 'test'], env: { X: '1' }, writes: ['log.txt'], dynamic: [], match: 'exact' },
    ]);
    expect(decide(exec('npm ci && X=1 npm test > log.txt'), [g]).verdict).toBe('allow');
    expect(decide(exec('npm ci'), [g]).verdict).toBe('allow');
    expect(decide(exec('X=1 npm test > log.txt'), [g]).verdict).toBe('allow');
    expect(decide(exec('X=1 npm test'), [g]).verdict).toBe('ask');
    expect(decide(exec('npm test > log.txt'), [g]).verdict).toBe('ask');
    expect(decide(exec('X=1 npm test > other.txt'), [g]).verdict).toBe('ask');
    expect(decide(exec('npm ci && rm -rf x'), [g]).verdict).toBe('ask');
  });

  it('run-time words are remembered as written and only match the same text', () => {
    const g = grant(exec('ls $HOME *.ts'), opts('session'));
    expect(g.commands?.[0]).toMatchObject({ argv: ['ls', '$HOME', '*.ts'], dynamic: [1, 2] });
    expect(decide(exec('ls $HOME *.ts'), [g]).verdict).toBe('allow');
    expect(decide(exec("ls '$HOME' '*.ts'"), [g]).verdict).toBe('ask');
  });

  it('paths: exactly the real paths shown', () => {
    const edit = (p: string): RequestFacts =>
      facts({ sessionCwd: box.root, projectRoot: box.root, toolKind: 'edit', paths: [p] });
    const g = grant(edit('src/a.ts'), opts('session', { projectRoot: box.root }));
    expect(g.paths).toEqual([path.join(box.root, 'src', 'a.ts')]);
    expect(decide(edit('src/a.ts'), [g]).verdict).toBe('allow');
    expect(decide(edit(path.join(box.root, 'src', 'a.ts')), [g]).verdict).toBe('allow');
    expect(decide(edit('src/inlink'), [g]).verdict).toBe('allow'); // same file through a link
    expect(decide(edit('src/b.ts'), [g]).verdict).toBe('ask');
    expect(decide(edit('src'), [g]).verdict).toBe('ask');
    expect(decide({ ...edit('src/a.ts'), toolKind: 'delete' }, [g]).verdict).toBe('ask');
    const viaLink = grant(edit('src/escape/secret.txt'), opts('session'));
    expect(viaLink.paths).toEqual([path.join(box.outside, 'inner', 'secret.txt')]);
  });
});

describe('grant scopes, expiry, revocation', () => {
  it('once and session grants stay in their session; project in its project; agent everywhere for that agent', () => {
    const once = grant(exec('ls'), opts('once'));
    const session = grant(exec('ls'), opts('session'));
    const project = grant(exec('ls'), opts('project'));
    const agent = grant(exec('ls'), opts('agent'));
    const otherSession = exec('ls', { sessionId: 'session-2' });
    const otherProject = exec('ls', {
      sessionId: 'session-2',
      projectRoot: '/elsewhere',
      sessionCwd: '/elsewhere',
    });
    const otherAgent = exec('ls', { agentId: 'agent-b' });

    expect(decide(exec('ls'), [once]).verdict).toBe('allow');
    expect(decide(otherSession, [once]).verdict).toBe('ask');
    expect(decide(exec('ls'), [session]).verdict).toBe('allow');
    expect(decide(otherSession, [session]).verdict).toBe('ask');
    expect(decide(otherSession, [project]).verdict).toBe('allow');
    expect(decide(otherProject, [project]).verdict).toBe('ask');
    expect(
      decide(exec('ls', { sessionId: 'x', projectRoot: `${PROJECT}/` }), [project]).verdict,
    ).toBe('allow');
    expect(decide(otherProject, [agent]).verdict).toBe('allow');
    for (const g of [once, session, project, agent])
      expect(decide(otherAgent, [g]).verdict).toBe('ask');
  });

  it('expires with an injected now', () => {
    const g = grant(exec('ls'), opts('agent', { expiresAt: NOW + 30 * 60_000 }));
    expect(decide(exec('ls'), [g], NOW + 29 * 60_000).verdict).toBe('allow');
    expect(decide(exec('ls'), [g], NOW + 30 * 60_000).verdict).toBe('ask');
    expect(isGrantActive(g, NOW + 31 * 60_000)).toBe(false);
  });

  it('revoked grants never apply; a once grant is used up after use', () => {
    const g = grant(exec('ls'), opts('agent'));
    const revoked = revokeGrant(g, NOW + 1);
    expect(revoked.revokedAt).toBe(NOW + 1);
    expect(revokeGrant(revoked, NOW + 5).revokedAt).toBe(NOW + 1);
    expect(decide(exec('ls'), [revoked]).verdict).toBe('ask');
    expect(decide(exec('ls'), [revoked], NOW - 1000).verdict).toBe('ask');
    const once = grant(exec('ls'), opts('once'));
    expect(afterGrantUse(once, NOW).revokedAt).toBe(NOW);
    expect(afterGrantUse(g, NOW)).toBe(g);
  });

  it('the narrowest matching grant decides; a rule is preferred over a grant', () => {
    const agent = grant(exec('ls'), opts('agent', { now: NOW + 5 }));
    const project = grant(exec('ls'), opts('project'));
    const session = grant(exec('ls'), opts('session', { now: NOW - 5 }));
    const prefix = grant(exec('ls -la'), opts('session', { prefixTokens: 1 }));
    expect(decide(exec('ls'), [agent, project, session]).decidedBy).toEqual({
      type: 'grant',
      grantId: session.id,
    });
    expect(decide(exec('ls'), [agent, project]).decidedBy).toEqual({
      type: 'grant',
      grantId: project.id,
    });
    expect(decide(exec('ls'), [prefix, session]).decidedBy).toEqual({
      type: 'grant',
      grantId: session.id,
    });
    expect(
      decide(exec('ls'), [session], NOW, [{ id: 'r', action: 'allow', command: 'ls' }]).decidedBy,
    ).toEqual({ type: 'rule', ruleId: 'r' });
  });

  it('grants never override deny rules, and mix with rules across parts', () => {
    const g = grant(exec('make build'), opts('agent'));
    const rules: Rule[] = [
      { id: 'deny-make', action: 'deny', command: 'make' },
      { id: 'allow-ls', action: 'allow', command: 'ls' },
    ];
    expect(decide(exec('make build'), [g], NOW, rules).verdict).toBe('deny');
    const mixed = decide(exec('ls && make build'), [g], NOW, [rules[1] as Rule]);
    expect(mixed.verdict).toBe('allow');
    expect(mixed.deciders).toEqual([
      { type: 'rule', ruleId: 'allow-ls' },
      { type: 'grant', grantId: g.id },
    ]);
  });

  it('the grant schema rejects inconsistent grants', () => {
    const base = grant(exec('ls'), opts('agent'));
    expect(GrantSchema.safeParse({ ...base, paths: ['/x'] }).success).toBe(false);
    const { commands: _c, ...noTarget } = base;
    expect(GrantSchema.safeParse(noTarget).success).toBe(false);
    expect(GrantSchema.safeParse({ ...base, scope: 'session', sessionId: undefined }).success).toBe(
      false,
    );
    expect(GrantSchema.safeParse({ ...base, scope: 'everywhere' }).success).toBe(false);
  });
});
