import { beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../shared/domain';
import type { Rule } from '../../../shared/rules';
import { evaluate, initShellParser } from '../rules';
import { quoteArgv } from '../safety';
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
