import { describe, expect, it } from 'vitest';
import { evaluate, PathResolver, type Rule } from '.';
import { evaluationFile, TABLE_RULES } from './helpers.test-support';

const { box, state, req, edit, exec } = evaluationFile();

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
