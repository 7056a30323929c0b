import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evaluate,
  initShellParser,
  PathResolver,
  resolveMode,
  type EvaluationState,
  type PermissionMode,
  type RequestFacts,
  type Rule,
  type ToolKind,
} from '.';
import { facts, makeSandbox, NOW, TABLE_RULES, type Sandbox } from './helpers.test-support';

let box: Sandbox;
beforeAll(async () => {
  await initShellParser();
  box = makeSandbox();
});
afterAll(() => box.cleanup());

function state(rules: Rule[], mode: PermissionMode = 'default'): EvaluationState {
  return { mode, rules, grants: [], now: NOW };
}
function req(partial: Partial<RequestFacts>): RequestFacts {
  return facts({ sessionCwd: box.root, ...partial });
}
const edit = (...paths: string[]): RequestFacts => req({ toolKind: 'edit', paths });
const exec = (command: string): RequestFacts => req({ toolKind: 'execute', command });

describe('precedence: deny > ask > allow, then most specific', () => {
  it('deny beats ask beats allow for the same command', () => {
    const rules: Rule[] = [
      { id: 'allow', action: 'allow', command: 'git push' },
      { id: 'ask', action: 'ask', command: 'git push' },
      { id: 'deny', action: 'deny', command: 'git push --force' },
    ];
    expect(evaluate(exec('git push --force'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'deny' },
    });
    expect(evaluate(exec('git push origin'), state(rules))).toMatchObject({
      verdict: 'ask',
      decidedBy: { ruleId: 'ask' },
    });
    expect(evaluate(exec('git push origin'), state([rules[0] as Rule]))).toMatchObject({
      verdict: 'allow',
      decidedBy: { ruleId: 'allow' },
    });
  });

  it('a general deny beats a specific allow (action before specificity)', () => {
    const rules: Rule[] = [
      { id: 'deny-all-exec', action: 'deny', toolKind: 'execute' },
      { id: 'allow-ls', action: 'allow', command: 'ls', agent: 'agent-a' },
    ];
    expect(evaluate(exec('ls'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'deny-all-exec' },
    });
  });

  it('reports the most specific matching rule: longer pattern, then kind, then agent, then order', () => {
    const rules: Rule[] = [
      { id: 'rm', action: 'deny', command: 'rm' },
      { id: 'rm-rf', action: 'deny', command: 'rm -rf' },
      { id: 'rm-rf-agent', action: 'deny', command: 'rm -rf', agent: 'agent-a' },
      {
        id: 'rm-rf-kind-agent',
        action: 'deny',
        command: 'rm -rf',
        agent: 'agent-a',
        toolKind: 'execute',
      },
    ];
    expect(evaluate(exec('rm -rf x'), state(rules)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'rm-rf-kind-agent',
    });
    expect(evaluate(exec('rm -rf x'), state(rules.slice(0, 3))).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'rm-rf-agent',
    });
    expect(evaluate(exec('rm -rf x'), state(rules.slice(0, 2))).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'rm-rf',
    });
    expect(evaluate(exec('rm x'), state(rules)).decidedBy).toEqual({ type: 'rule', ruleId: 'rm' });
    const twins: Rule[] = [
      { id: 'first', action: 'allow', command: 'ls' },
      { id: 'second', action: 'allow', command: 'ls' },
    ];
    expect(evaluate(exec('ls'), state(twins)).decidedBy).toEqual({ type: 'rule', ruleId: 'first' });
    const exactBeatsPrefix: Rule[] = [
      { id: 'prefix', action: 'allow', command: 'npm test' },
      { id: 'exact', action: 'allow', command: 'npm test', commandMatch: 'exact' },
    ];
    expect(evaluate(exec('npm test'), state(exactBeatsPrefix)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'exact',
    });
    expect(evaluate(exec('npm test -w'), state(exactBeatsPrefix)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'prefix',
    });
  });

  it('path specificity: a more literal glob wins', () => {
    const rules: Rule[] = [
      { id: 'any-src', action: 'ask', path: 'src/**' },
      { id: 'a-ts', action: 'ask', path: 'src/a.ts' },
    ];
    expect(evaluate(edit('src/a.ts'), state(rules)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'a-ts',
    });
  });

  it('agent and project scope a rule', () => {
    const rules: Rule[] = [
      { id: 'b-only', action: 'allow', command: 'ls', agent: 'agent-b' },
      { id: 'other-project', action: 'allow', command: 'cat', project: '/somewhere/else' },
      { id: 'this-project', action: 'allow', command: 'pwd', project: `${box.root}/` },
    ];
    expect(evaluate(exec('ls'), state(rules)).verdict).toBe('ask');
    expect(evaluate({ ...exec('ls'), agentId: 'agent-b' }, state(rules)).verdict).toBe('allow');
    expect(evaluate({ ...exec('cat x'), projectRoot: box.root }, state(rules)).verdict).toBe('ask');
    expect(evaluate({ ...exec('pwd'), projectRoot: box.root }, state(rules)).verdict).toBe('allow');
    expect(evaluate(exec('pwd'), state(rules)).verdict).toBe('ask');
  });

  it('compound: allowed only when every part is; the reason names each decider', () => {
    const r = evaluate(exec('ls && git status && npm test'), state(TABLE_RULES));
    expect(r.verdict).toBe('allow');
    expect(r.deciders).toEqual([
      { type: 'rule', ruleId: 'allow-ls' },
      { type: 'rule', ruleId: 'allow-git-status' },
      { type: 'rule', ruleId: 'allow-npm-test' },
    ]);
    expect(r.reason).toMatch(/`git status` by rule "allow-git-status"/);
    const partly = evaluate(exec('ls && make'), state(TABLE_RULES));
    expect(partly).toMatchObject({ verdict: 'ask', decidedBy: { type: 'default' } });
    expect(partly.reason).toMatch(/`make`/);
  });

  it('command prefixes with * match within one token only', () => {
    const rules: Rule[] = [
      { id: 'scripts', action: 'allow', command: 'npm run test:*' },
      { id: 'any-one-arg', action: 'allow', command: 'make * --dry-run' },
      { id: 'star-literal', action: 'allow', command: 'echo \\*' },
    ];
    expect(evaluate(exec('npm run test:unit -- --watch'), state(rules)).verdict).toBe('allow');
    expect(evaluate(exec('npm run test:'), state(rules)).verdict).toBe('allow');
    expect(evaluate(exec('npm run test'), state(rules)).verdict).toBe('ask');
    expect(evaluate(exec('npm run lint test:unit'), state(rules)).verdict).toBe('ask');
    expect(evaluate(exec('make all --dry-run'), state(rules)).verdict).toBe('allow');
    expect(evaluate(exec('make all clean --dry-run'), state(rules)).verdict).toBe('ask');
    expect(evaluate(exec("echo '*'"), state(rules)).verdict).toBe('allow');
    expect(evaluate(exec('echo x'), state(rules)).verdict).toBe('ask');
  });

  it('allow rules do not follow a path to the command, deny rules do', () => {
    const rules: Rule[] = [
      { id: 'allow-ls', action: 'allow', command: 'ls' },
      { id: 'deny-curl', action: 'deny', command: 'curl' },
    ];
    expect(evaluate(exec('./ls'), state(rules)).verdict).toBe('ask');
    expect(evaluate(exec('/tmp/evil/ls'), state(rules)).verdict).toBe('ask');
    expect(evaluate(exec('/usr/bin/curl x'), state(rules)).verdict).toBe('deny');
  });

  it('on case-insensitive systems deny matches the command name in any case', () => {
    const ci = new PathResolver({ caseInsensitive: true });
    const cs = new PathResolver({ caseInsensitive: false });
    const rules: Rule[] = [{ id: 'deny-curl', action: 'deny', command: 'curl' }];
    expect(evaluate(exec('CURL x'), state(rules), { resolver: ci }).verdict).toBe('deny');
    expect(evaluate(exec('CURL x'), state(rules), { resolver: cs }).verdict).toBe('ask');
  });

  it('deny command rules apply whatever kind the agent labelled the request with', () => {
    const rules: Rule[] = [{ id: 'deny-curl', action: 'deny', command: 'curl' }];
    expect(evaluate(req({ toolKind: 'other', command: 'curl x' }), state(rules)).verdict).toBe(
      'deny',
    );
    expect(evaluate(req({ command: 'curl x' }), state(rules)).verdict).toBe('deny');
    // … but an allow command rule only allows execute requests
    expect(evaluate(req({ toolKind: 'other', command: 'ls' }), state(TABLE_RULES)).verdict).toBe(
      'ask',
    );
  });

  it('a request with no kind, paths or command is never allowed (except bypass)', () => {
    const everything: Rule[] = [{ id: 'trust-agent', action: 'allow', agent: 'agent-a' }];
    expect(evaluate(req({}), state(everything))).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'default' },
    });
    expect(evaluate(req({ paths: ['src/a.ts'] }), state(everything)).verdict).toBe('ask');
    expect(evaluate(req({ toolKind: 'execute' }), state(everything)).verdict).toBe('ask');
    expect(evaluate(req({ toolKind: 'execute', command: '  ' }), state(everything)).verdict).toBe(
      'ask',
    );
    expect(evaluate(req({}), state([], 'bypassPermissions')).verdict).toBe('allow');
    // kind-only rules can allow a request whose only information is its kind
    expect(
      evaluate(req({ toolKind: 'think' }), state([{ id: 't', action: 'allow', toolKind: 'think' }]))
        .verdict,
    ).toBe('allow');
  });

  it('ask rules and might-match deny rules', () => {
    const rules: Rule[] = [
      ...TABLE_RULES,
      { id: 'ask-git-push', action: 'ask', command: 'git push' },
    ];
    expect(evaluate(exec('git push'), state(rules, 'bypassPermissions'))).toMatchObject({
      verdict: 'ask',
      decidedBy: { ruleId: 'ask-git-push' },
    });
    const maybe = evaluate(exec('rm $OPTS dir'), state(rules, 'bypassPermissions'));
    expect(maybe).toMatchObject({ verdict: 'ask', decidedBy: { ruleId: 'deny-rm-rf' } });
    expect(maybe.reason).toMatch(/only known when it runs/);
  });
});

describe('modes', () => {
  const kinds: ToolKind[] = [
    'read',
    'edit',
    'delete',
    'move',
    'search',
    'execute',
    'think',
    'fetch',
    'switch_mode',
    'other',
  ];

  it('default asks for everything without rules', () => {
    for (const toolKind of kinds) {
      expect(
        evaluate(req({ toolKind, paths: ['src/a.ts'], command: 'ls' }), state([])).verdict,
      ).toBe('ask');
    }
  });

  it('acceptEdits allows edit/delete/move inside the folder, including files that do not exist yet', () => {
    for (const toolKind of ['edit', 'delete', 'move'] as const) {
      const r = evaluate(
        req({
          toolKind,
          paths: ['src/a.ts', 'src/new/dir/file.ts', path.join(box.root, 'README.md')],
        }),
        state([], 'acceptEdits'),
      );
      expect(r).toMatchObject({
        verdict: 'allow',
        decidedBy: { type: 'mode', mode: 'acceptEdits' },
      });
    }
    expect(evaluate(edit('src/inlink'), state([], 'acceptEdits')).verdict).toBe('allow');
  });

  it('acceptEdits asks for paths that escape: .., absolute outside, symlinks out, dangling symlinks', () => {
    const escapes = [
      '../outside/inner/secret.txt',
      'src/../../outside/x.txt',
      path.join(box.outside, 'inner', 'secret.txt'),
      'src/escape/secret.txt',
      'src/escape/new-file.txt',
      'src/dangling',
      // kernel semantics: `escape/..` is the parent of the link TARGET, not src/
      'src/escape/../x.txt',
      '/etc/passwd',
    ];
    for (const p of escapes) {
      expect(evaluate(edit(p), state([], 'acceptEdits')).verdict, p).toBe('ask');
    }
    // one path outside spoils the batch
    expect(
      evaluate(
        req({ toolKind: 'move', paths: ['src/a.ts', '../outside/a.ts'] }),
        state([], 'acceptEdits'),
      ).verdict,
    ).toBe('ask');
  });

  it('acceptEdits still asks for .git internals, the folder itself, other kinds and path-less edits', () => {
    expect(evaluate(edit('.git/hooks/pre-commit'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('.git/config'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('vendor/lib/.git/config'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('.'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(req({ toolKind: 'edit' }), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(
      evaluate(req({ toolKind: 'read', paths: ['src/a.ts'] }), state([], 'acceptEdits')).verdict,
    ).toBe('ask');
    expect(evaluate(exec('touch src/x'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('.github/workflows/ci.yml'), state([], 'acceptEdits')).verdict).toBe(
      'allow',
    );
  });

  it('plan denies writes, execution, other and unlabelled requests; reads ask; switch_mode asks', () => {
    for (const toolKind of ['edit', 'delete', 'move', 'execute', 'other'] as const) {
      const r = evaluate(
        req({ toolKind, paths: ['src/a.ts'], command: 'ls' }),
        state(TABLE_RULES, 'plan'),
      );
      expect(r, toolKind).toMatchObject({
        verdict: 'deny',
        decidedBy: { type: 'mode', mode: 'plan' },
      });
      expect(r.reason).toMatch(/Plan mode/);
    }
    expect(evaluate(req({ paths: ['src/a.ts'] }), state([], 'plan')).verdict).toBe('deny');
    for (const toolKind of ['read', 'search', 'think', 'fetch', 'switch_mode'] as const) {
      expect(
        evaluate(req({ toolKind, paths: ['src/a.ts'] }), state([], 'plan')).verdict,
        toolKind,
      ).toBe('ask');
    }
    // allow rules still apply to reads in plan mode
    expect(
      evaluate(
        req({ toolKind: 'read', paths: ['src/a.ts'] }),
        state([{ id: 'r', action: 'allow', toolKind: 'read' }], 'plan'),
      ).verdict,
    ).toBe('allow');
  });

  it('plan: deny and ask rules come first', () => {
    expect(evaluate(exec('curl x'), state(TABLE_RULES, 'plan')).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'deny-curl',
    });
    const ask: Rule[] = [{ id: 'ask-src', action: 'ask', path: 'src/**', toolKind: 'edit' }];
    expect(evaluate(edit('src/a.ts'), state(ask, 'plan'))).toMatchObject({
      verdict: 'ask',
      decidedBy: { ruleId: 'ask-src' },
    });
  });

  it('bypassPermissions allows everything except deny (and ask) rules', () => {
    expect(evaluate(exec('bash -c "anything $(x)"'), state([], 'bypassPermissions'))).toMatchObject(
      {
        verdict: 'allow',
        decidedBy: { type: 'mode', mode: 'bypassPermissions' },
      },
    );
    expect(evaluate(edit('/etc/passwd'), state([], 'bypassPermissions')).verdict).toBe('allow');
    expect(evaluate(exec('sudo curl x'), state(TABLE_RULES, 'bypassPermissions'))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'deny-curl' },
    });
    // a rule that allows is still reported as the decider under bypass
    expect(evaluate(exec('ls'), state(TABLE_RULES, 'bypassPermissions')).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'allow-ls',
    });
  });

  it('resolveMode: session overrides agent; per-agent bypass maps to bypassPermissions', () => {
    expect(resolveMode({})).toBe('default');
    expect(resolveMode({ agent: { bypassPermissions: true } })).toBe('bypassPermissions');
    expect(resolveMode({ agent: { bypassPermissions: true, mode: 'plan' } })).toBe(
      'bypassPermissions',
    );
    expect(resolveMode({ agent: { mode: 'acceptEdits' } })).toBe('acceptEdits');
    expect(resolveMode({ session: 'plan', agent: { bypassPermissions: true } })).toBe('plan');
    expect(resolveMode({ session: 'default', agent: { mode: 'bypassPermissions' } })).toBe(
      'default',
    );
    expect(resolveMode({ session: null, agent: { bypassPermissions: false, mode: 'plan' } })).toBe(
      'plan',
    );
  });
});

describe('path rules', () => {
  it('relative globs are relative to the session folder and never match outside it', () => {
    const rules: Rule[] = [
      { id: 'src', action: 'allow', path: 'src/**', toolKind: ['edit', 'read'] },
    ];
    expect(evaluate(edit('src/a.ts'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit(path.join(box.root, 'src', 'deep', 'x.ts')), state(rules)).verdict).toBe(
      'allow',
    );
    expect(evaluate(edit('lib/a.ts'), state(rules)).verdict).toBe('ask');
    // `src/escape` is inside lexically but its real path is outside: an allow never follows it
    expect(evaluate(edit('src/escape/secret.txt'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('src/dangling'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('src/escape/../x.txt'), state(rules)).verdict).toBe('ask');
    // a session opened elsewhere: `src/**` is about THAT folder
    expect(
      evaluate(
        { ...edit(path.join(box.root, 'src', 'a.ts')), sessionCwd: box.outside },
        state(rules),
      ).verdict,
    ).toBe('ask');
  });

  it('deny globs match the lexical OR the real path', () => {
    const rules: Rule[] = [
      { id: 'allow-all-edits', action: 'allow', toolKind: 'edit' },
      { id: 'no-secrets', action: 'deny', path: path.join(box.outside, '**') },
      { id: 'no-src-escape', action: 'deny', path: 'src/escape/**' },
    ];
    // real path outside → denied by the absolute glob
    expect(evaluate(edit('src/inlink'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('src/dangling'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-secrets' },
    });
    expect(evaluate(edit('../outside/inner/secret.txt'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-secrets' },
    });
    // lexical path only: `src/escape/../x.txt` is lexically src/x.txt but really outside/x.txt
    expect(evaluate(edit('src/escape/../x.txt'), state(rules)).verdict).toBe('deny');
  });

  it('absolute globs: their literal base is resolved too; ~/ is the home directory', () => {
    const resolver = new PathResolver({ homedir: box.outside, caseInsensitive: false });
    const viaLink: Rule[] = [
      { id: 'via-link', action: 'deny', path: path.join(box.root, 'src', 'escape', '**') },
    ];
    expect(
      evaluate(edit(path.join(box.outside, 'inner', 'secret.txt')), state(viaLink), { resolver })
        .verdict,
    ).toBe('deny');
    const home: Rule[] = [{ id: 'home', action: 'deny', path: '~/inner/**' }];
    expect(evaluate(edit('src/escape/secret.txt'), state(home), { resolver }).verdict).toBe('deny');
    expect(evaluate(edit('src/a.ts'), state(home), { resolver }).verdict).toBe('ask');
    const etc: Rule[] = [
      { id: 'etc', action: 'deny', path: '/etc/**', toolKind: ['read', 'edit'] },
    ];
    expect(
      evaluate(req({ toolKind: 'read', paths: ['/etc/passwd'] }), state(etc), { resolver }).verdict,
    ).toBe('deny');
  });

  it('dot-files: deny globs catch them, allow globs must name them', () => {
    const rules: Rule[] = [
      { id: 'allow-src', action: 'allow', path: 'src/**', toolKind: 'edit' },
      { id: 'allow-workflows', action: 'allow', path: '.github/**', toolKind: 'edit' },
      { id: 'allow-all-star', action: 'allow', path: '*', toolKind: 'edit' },
    ];
    expect(evaluate(edit('src/a.ts'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('src/.env'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('src/.hidden/x.ts'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('.github/workflows/ci.yml'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('README.md'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('.npmrc'), state(rules)).verdict).toBe('ask');
    const explicit: Rule[] = [{ id: 'env', action: 'allow', path: 'src/.env', toolKind: 'edit' }];
    expect(evaluate(edit('src/.env'), state(explicit)).verdict).toBe('allow');

    const deny: Rule[] = [
      { id: 'allow-edits', action: 'allow', toolKind: 'edit' },
      { id: 'no-src-secrets', action: 'deny', path: 'src/*' },
      { id: 'no-keys', action: 'deny', path: '**/*.key' },
    ];
    expect(evaluate(edit('src/.env'), state(deny)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'no-src-secrets',
    });
    expect(evaluate(edit('a/.b/.c.key'), state(deny)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'no-keys',
    });
  });

  it('deny globs are case-insensitive where the file system is', () => {
    const rules: Rule[] = [{ id: 'no-env', action: 'deny', path: '**/.env' }];
    const ci = new PathResolver({ caseInsensitive: true });
    const cs = new PathResolver({ caseInsensitive: false });
    expect(evaluate(edit('src/.ENV'), state(rules), { resolver: ci }).verdict).toBe('deny');
    expect(evaluate(edit('src/.ENV'), state(rules), { resolver: cs }).verdict).toBe('ask');
  });

  it('kind-restricted path rules: an "other" or unlabelled request may be anything, so deny still applies', () => {
    const rules: Rule[] = [
      { id: 'no-env-edits', action: 'deny', path: '**/.env', toolKind: 'edit' },
    ];
    expect(evaluate(req({ toolKind: 'read', paths: ['src/.env'] }), state(rules)).verdict).toBe(
      'ask',
    );
    expect(evaluate(req({ toolKind: 'other', paths: ['src/.env'] }), state(rules)).verdict).toBe(
      'deny',
    );
    expect(evaluate(req({ paths: ['src/.env'] }), state(rules)).verdict).toBe('deny');
  });

  it('shell redirections are writes that edit path rules see', () => {
    const rules: Rule[] = [
      { id: 'allow-echo', action: 'allow', command: 'echo' },
      { id: 'no-env', action: 'deny', path: '**/.env', toolKind: ['edit'] },
      { id: 'no-etc', action: 'deny', path: '/etc/**' },
    ];
    expect(evaluate(exec('echo SECRET=1 > src/.env'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-env' },
    });
    expect(evaluate(exec('echo x >> /etc/hosts'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-etc' },
    });
    expect(evaluate(exec('echo x > "$OUT"'), state(rules))).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'rule' },
    });
    expect(evaluate(exec('echo x'), state(rules)).verdict).toBe('allow');
    // after `cd`, a relative target could be anywhere: might match, so ask even under bypass
    expect(
      evaluate(exec('cd /etc && echo x > hosts'), state(rules, 'bypassPermissions')),
    ).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'rule' },
    });
    expect(
      evaluate(exec('echo x > hosts && cd /etc'), state(rules, 'bypassPermissions')).verdict,
    ).toBe('allow');
    expect(evaluate(exec('echo x > notes.txt'), state(rules))).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'default' },
    });
  });

  it('move: every path must be allowed; any denied path denies', () => {
    const rules: Rule[] = [
      { id: 'src', action: 'allow', path: 'src/**', toolKind: 'move' },
      { id: 'no-lib', action: 'deny', path: 'lib/**' },
    ];
    expect(
      evaluate(req({ toolKind: 'move', paths: ['src/a.ts', 'src/b.ts'] }), state(rules)).verdict,
    ).toBe('allow');
    expect(
      evaluate(req({ toolKind: 'move', paths: ['src/a.ts', 'docs/b.ts'] }), state(rules)).verdict,
    ).toBe('ask');
    expect(
      evaluate(req({ toolKind: 'move', paths: ['src/a.ts', 'lib/b.ts'] }), state(rules)).verdict,
    ).toBe('deny');
  });
});

describe('path resolution with an injected file system', () => {
  // A tiny fake FS: existing real paths, and symlinks (name -> target).
  function fakeFs(files: string[], links: Record<string, string>) {
    const exists = new Set(files);
    const realpath = (p: string, depth = 0): string => {
      const parts = path.posix.normalize(p).split('/').filter(Boolean);
      let cur = '';
      let hops = 0;
      for (let i = 0; i < parts.length; i++) {
        const next = `${cur}/${parts[i]}`;
        if (parts[i] === '..') {
          cur = path.posix.dirname(cur === '' ? '/' : cur);
          continue;
        }
        const link = links[next];
        if (link !== undefined) {
          hops += 1;
          if (hops > 10 || depth > 10) throw Object.assign(new Error('ELOOP'), { code: 'ELOOP' });
          const rest = parts.slice(i + 1).join('/');
          return realpath(rest ? `${link}/${rest}` : link, depth + 1);
        }
        if (!exists.has(next)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        cur = next;
      }
      return cur === '' ? '/' : cur;
    };
    return { realpath, readlink: (p: string) => links[p] ?? null };
  }

  it('follows links in existing parents, dangling links, and reports loops as unresolvable', () => {
    const r = new PathResolver({
      path: path.posix,
      fs: fakeFs(['/s', '/s/src', '/o'], {
        '/s/src/out': '/o',
        '/s/src/ghost': '/o/new.txt',
        '/s/loop': '/s/loop2',
        '/s/loop2': '/s/loop',
      }),
    });
    expect(r.resolve('src/out/x.txt', '/s')).toEqual({
      input: 'src/out/x.txt',
      lexical: '/s/src/out/x.txt',
      real: '/o/x.txt',
    });
    expect(r.resolve('src/ghost', '/s').real).toBe('/o/new.txt');
    expect(r.resolve('src/new/deep.txt', '/s').real).toBe('/s/src/new/deep.txt');
    expect(r.resolve('loop/x', '/s').real).toBeNull();
  });

  it('an unresolvable path is never allowed but can still be denied by its lexical path', () => {
    const resolver = new PathResolver({
      path: path.posix,
      fs: fakeFs(['/s'], { '/s/loop': '/s/loop2', '/s/loop2': '/s/loop' }),
    });
    const f: RequestFacts = {
      agentId: 'a',
      sessionId: 's',
      sessionCwd: '/s',
      toolKind: 'edit',
      paths: ['loop/x'],
    };
    expect(
      evaluate(f, state([{ id: 'all', action: 'allow', path: '**' }], 'acceptEdits'), { resolver })
        .verdict,
    ).toBe('ask');
    expect(
      evaluate(f, state([{ id: 'no-loop', action: 'deny', path: 'loop/**' }]), { resolver })
        .verdict,
    ).toBe('deny');
  });
});

describe('symlinked session folder', () => {
  it('a session opened through a symlink still sees its own files as inside', () => {
    const link = `${box.root}-link`;
    fs.symlinkSync(box.root, link);
    try {
      const r = evaluate({ ...edit('src/a.ts'), sessionCwd: link }, state([], 'acceptEdits'));
      expect(r.verdict).toBe('allow');
      const r2 = evaluate(
        { ...edit(path.join(link, 'src', 'a.ts')), sessionCwd: box.root },
        state([{ id: 's', action: 'allow', path: 'src/*', toolKind: 'edit' }]),
      );
      expect(r2.verdict).toBe('allow');
    } finally {
      fs.unlinkSync(link);
    }
  });
});
