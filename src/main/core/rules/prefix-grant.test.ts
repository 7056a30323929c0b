import { beforeAll, describe, expect, it } from 'vitest';
import {
  evaluate,
  grantFromRequest,
  initShellParser,
  type Grant,
  type GrantOptions,
  type RequestFacts,
  type Rule,
} from '.';
import { facts, NOW } from './helpers.test-support';
import { leastPrefixWords, prefixOffer, prefixRefusal } from './prefix-grant';
import { NPM_TEST_TABLE } from './prefix-grant.test-support';
import type { SimpleCommand } from './shell/types';

beforeAll(async () => {
  await initShellParser();
});

const PROJECT = '/work/project';
const exec = (command: string): RequestFacts =>
  facts({ sessionCwd: PROJECT, projectRoot: PROJECT, toolKind: 'execute', command });
const opts = (prefixTokens: number): GrantOptions => ({
  scope: 'project',
  sessionId: 'session-1',
  agentId: 'agent-a',
  projectRoot: PROJECT,
  now: NOW,
  prefixTokens,
});
function prefixGrant(command: string, words: number): Grant {
  const made = grantFromRequest(exec(command), opts(words));
  if (!made.ok) throw new Error(made.error);
  return made.grant;
}
const verdict = (command: string, grants: Grant[], rules: Rule[] = [], managed: Rule[] = []) =>
  evaluate(exec(command), { mode: 'default', rules, managed, grants, now: NOW }).verdict;

describe('a prefix grant over real shell lines', () => {
  let grant: Grant;
  beforeAll(() => {
    grant = prefixGrant('npm test', 2);
  });

  it('is the two words picked, a prefix, nothing else', () => {
    expect(grant.commands).toEqual([
      { argv: ['npm', 'test'], env: {}, writes: [], dynamic: [], match: 'prefix' },
    ]);
    expect(NPM_TEST_TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(NPM_TEST_TABLE)('%j → covered: %s', (command, covered) => {
    expect(verdict(command, [grant])).toBe(covered ? 'allow' : 'ask');
  });

  it('a write the person saw is part of the prefix: the same write, and only it', () => {
    const withLog = prefixGrant('npm test -- a > log.txt', 2);
    expect(withLog.commands?.[0]).toMatchObject({ argv: ['npm', 'test'], writes: ['log.txt'] });
    expect(verdict('npm test -- b > log.txt', [withLog])).toBe('allow');
    expect(verdict('npm test -- b 2>&1 > log.txt', [withLog])).toBe('allow');
    expect(verdict('npm test -- b', [withLog])).toBe('ask');
    expect(verdict('npm test -- b > other.txt', [withLog])).toBe('ask');
    expect(verdict('npm test -- b > log.txt > /etc/x', [withLog])).toBe('ask');
  });

  it('deny and ask rules come first, managed ones before all', () => {
    const deny: Rule = { id: 'no-publish', action: 'deny', command: 'npm test -- --publish' };
    const ask: Rule = { id: 'ask-ci', action: 'ask', command: 'npm test -- --ci' };
    expect(verdict('npm test -- --publish', [grant], [deny])).toBe('deny');
    expect(verdict('npm test -- --ci', [grant], [ask])).toBe('ask');
    expect(verdict('npm test -- --publish', [grant], [], [deny])).toBe('deny');
    const managed = evaluate(exec('npm test -- --ci'), {
      mode: 'default',
      rules: [{ id: 'allow-npm', action: 'allow', command: 'npm test' }],
      managed: [ask],
      grants: [grant],
      now: NOW,
    });
    expect(managed).toMatchObject({ verdict: 'ask', managed: true });
    expect(verdict('npm test -- foo', [grant], [deny])).toBe('allow');
  });

  it('a write to a protected file is never remembered, and asked whatever the grant', () => {
    const hook = grantFromRequest(exec('npm test -- a > .git/hooks/pre-commit'), opts(2));
    expect(hook.ok ? '' : hook.error).toMatch(/protected file/);
    const forged: Grant = {
      ...grant,
      commands: [{ ...grant.commands![0]!, writes: ['.git/hooks/pre-commit'] }],
    };
    expect(verdict('npm test -- b > .git/hooks/pre-commit', [forged])).toBe('ask');
  });
});

describe('the prefixes that cannot be remembered', () => {
  const refusal = (command: string, words: number): string => {
    const made = grantFromRequest(exec(command), opts(words));
    return made.ok ? '' : made.error;
  };

  // [command, words refused, words accepted (or null: none is)]
  // prettier-ignore
  const PREFIXES: Array<[string, number, number | null]> = [
    ['bash build.sh', 1, 2],
    ['sh -x build.sh --fast', 2, 3],
    ['zsh build.sh', 1, 2],
    ['python3 manage.py test', 1, 2],
    ['python -m pytest -q', 2, 3],
    ['node scripts/check.js', 1, 2],
    ['node --test', 2, null],
    ['perl tools/gen.pl', 1, 2],
    ['ruby bin/setup', 1, 2],
    ['php artisan test', 1, 2],
    ['deno run main.ts', 2, 3],
    ['bun run test', 2, 3],
    ['npx vitest run', 1, 2],
    ['npm exec vitest', 2, 3],
    ['uv run pytest', 2, 3],
    ['npm test -- foo', 1, 2],
    ['ls -la', 0, 1],
  ];

  it.each(PREFIXES)('%j: %i words refused, %s accepted', (command, refused, accepted) => {
    if (refused > 0) expect(refusal(command, refused)).toMatch(/^Cannot remember this decision: /);
    if (accepted !== null) expect(refusal(command, accepted)).toBe('');
    else expect(refusal(command, refused)).toMatch(/runs|names/);
  });

  it('a wrapper or a builtin that runs what follows it is no prefix, whatever its words', () => {
    const simple = (argv: string[]): SimpleCommand => ({
      argv,
      env: {},
      redirects: [],
      text: argv.join(' '),
      dynamic: [],
    });
    for (const name of ['env', 'xargs', 'sudo', 'doas', 'nice', 'nohup', 'timeout', 'time'])
      expect(prefixRefusal(simple([name, 'npm', 'test']), 3), name).toMatch(/runs whatever/);
    for (const name of ['exec', 'eval', 'command', 'builtin', 'source', 'watch', 'iex'])
      expect(prefixRefusal(simple([name, 'npm', 'test']), 3), name).toMatch(/runs whatever/);
    expect(leastPrefixWords(simple(['python', '-c', 'print(1)']))).toMatchObject({
      refused: expect.stringMatching(/names no script/),
    });
    expect(leastPrefixWords(simple(['git', 'status']))).toEqual({ least: 1 });
  });

  it('says why, and remembers nothing for a compound line, a read, too many words', () => {
    expect(refusal('bash build.sh', 1)).toMatch(/`bash …` would run anything: pick at least 2/);
    expect(refusal('npm test', 1)).toMatch(/`npm …` would run anything/);
    expect(refusal('env', 1)).toMatch(/cannot be checked automatically/);
    expect(refusal('npm test && ls', 2)).toMatch(/one simple command.*runs 2/);
    expect(refusal('npm test | tail', 2)).toMatch(/one simple command/);
    expect(refusal('npm test < input.txt', 2)).toMatch(/cannot state the redirection `<`/);
    expect(refusal('npm test', 3)).toMatch(/has 2 words, fewer than the 3 picked/);
    expect(refusal('npm test $(id)', 2)).toMatch(/cannot be checked automatically/);
    expect(refusal('npm $T x', 2)).toMatch(/only known when it runs/);
    expect(refusal('npm test', 0)).toMatch(/at least 1/);
  });
});

describe('what "always" offers to pick from', () => {
  it('the words of one simple command as the shell reads them, and the least a prefix needs', () => {
    expect(prefixOffer(`npm test -- 'a b'`)).toEqual({
      words: ['npm', 'test', '--', 'a b'],
      least: 2,
    });
    expect(prefixOffer('python -m pytest -q')).toEqual({
      words: ['python', '-m', 'pytest', '-q'],
      least: 3,
    });
    expect(prefixOffer('X=1 ls -la > out.txt 2>&1')).toEqual({ words: ['ls', '-la'], least: 1 });
    expect(prefixOffer('ls $HOME -la')).toEqual({ words: ['ls'], least: 1 });
    expect(prefixOffer(`ls ${'x'.repeat(2_000)}`)).toEqual({ words: ['ls'], least: 1 });
  });

  it('nothing for a line no prefix of which can be remembered', () => {
    for (const line of [
      'npm test && ls',
      'npm test | tail',
      'npm test $(id)',
      'npm test < in.txt',
      'bash',
      'node --test',
      'npx',
      'sudo npm test',
      '$NPM test',
      'npm $T',
      '',
    ])
      expect(prefixOffer(line), line).toBeNull();
  });
});
