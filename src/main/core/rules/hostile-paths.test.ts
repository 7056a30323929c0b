// A request whose paths are written to make the rules' look at the disk slow, or to spend its
// budget before the one path that matters.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, PathResolver, type Rule } from '.';
import { diskProbe, type FsProbe } from '../fs/containment';
import { evaluationFile } from './helpers.test-support';
import { REQUEST_LOOKUP_BUDGET } from './paths';
import { prepareRequest } from './request';
import { MAX_LOCATIONS } from '../safety/limits';

const { box, state, edit } = evaluationFile();

/** A resolver on the real disk that writes down every path it asks about. */
function countingResolver(): { resolver: PathResolver; asked: string[] } {
  const asked: string[] = [];
  const fs: FsProbe = {
    ...diskProbe,
    realpath: (p) => (asked.push(p), diskProbe.realpath(p)),
    readlink: (p) => (asked.push(p), diskProbe.readlink(p)),
  };
  return { resolver: new PathResolver({ fs }), asked };
}

/** As many paths as a request may name, each 2,000 folders that are not there. */
const spending = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${'a/'.repeat(2_000)}${i}`);

describe('a request that names paths to slow the rules down', () => {
  it('asks the disk within one budget, however many long paths it names', () => {
    const { resolver, asked } = countingResolver();
    const prep = prepareRequest(edit(...spending(MAX_LOCATIONS)), resolver);
    const text = asked.reduce((sum, p) => sum + p.length, 0);
    // The session folder, then the budget's worth; one question may overrun it.
    expect(text).toBeLessThanOrEqual(REQUEST_LOOKUP_BUDGET + 4_096 + box.root.length);
    expect(asked.length).toBeLessThan(REQUEST_LOOKUP_BUDGET / 64);
    // Some were found before the budget ran out, the rest are unknown.
    const known = prep.paths.filter((p) => p.real !== null).length;
    expect(known).toBeGreaterThan(0);
    expect(known).toBeLessThan(MAX_LOCATIONS);
  });

  it('asks about a path named a thousand times once', () => {
    const { resolver, asked } = countingResolver();
    const prep = prepareRequest(
      edit(...Array.from({ length: MAX_LOCATIONS }, () => 'src/new/file.ts')),
      resolver,
    );
    expect(prep.paths.every((p) => p.real === path.join(box.root, 'src/new/file.ts'))).toBe(true);
    // The session folder once; the path: itself, its folder, the session's src, and two links.
    expect(asked.length).toBeLessThanOrEqual(1 + 6);
  });

  it('finds an absolute glob once a request, and outside its budget', () => {
    const linked = path.join(path.dirname(box.root), 'secrets-link');
    fs.symlinkSync(box.outside, linked, 'dir');
    try {
      const rules: Rule[] = [
        { id: 'all-edits', action: 'allow', toolKind: 'edit' },
        { id: 'no-secrets', action: 'deny', path: `${linked}/**` },
      ];
      // Named first, the secret's place is known; the rest spend the budget before the rule's
      // base is looked at. The rule still matches what it names.
      const secret = path.join(box.outside, 'inner', 'secret.txt');
      const verdict = evaluate(edit(secret, ...spending(MAX_LOCATIONS - 1)), state(rules));
      expect(verdict).toMatchObject({
        verdict: 'deny',
        reason: expect.stringMatching(/no-secrets/),
      });
    } finally {
      fs.unlinkSync(linked);
    }
  });
});

describe('a path whose place is not known', () => {
  const last = (real: string): string[] => [...spending(MAX_LOCATIONS - 1), real];

  it('might match a deny rule, so even Bypass asks', () => {
    const rules: Rule[] = [{ id: 'no-outside', action: 'deny', path: `${box.outside}/**` }];
    // src/escape leads outside; named after the budget is spent, where it leads is not known.
    const verdict = evaluate(
      edit(...last('src/escape/secret.txt')),
      state(rules, 'bypassPermissions'),
    );
    expect(verdict.verdict).toBe('ask');
    expect(verdict.reason).toMatch(/Might match deny rule "no-outside".*could not be worked out/);
    // Named alone, it is denied.
    expect(evaluate(edit('src/escape/secret.txt'), state(rules, 'bypassPermissions')).verdict).toBe(
      'deny',
    );
  });

  it('may be a protected file, so a person decides whatever the mode or rule', () => {
    // A link to the git hooks, named after the budget is spent.
    fs.symlinkSync(path.join(box.root, '.git', 'hooks'), path.join(box.root, 'hooks-link'));
    try {
      const rules: Rule[] = [{ id: 'all-edits', action: 'allow', toolKind: 'edit' }];
      for (const mode of ['bypassPermissions', 'acceptEdits', 'default'] as const) {
        const verdict = evaluate(edit(...last('hooks-link/pre-commit')), state(rules, mode));
        expect(verdict).toMatchObject({ verdict: 'ask', protectedWrite: true });
        expect(verdict.reason).toMatch(
          /\(where it leads could not be worked out, so it may be one\)/,
        );
      }
      // Named alone, it is known for what it is.
      expect(
        evaluate(edit('hooks-link/pre-commit'), state(rules, 'bypassPermissions')),
      ).toMatchObject({
        verdict: 'ask',
        protectedWrite: true,
        reason: expect.stringMatching(/hooks-link\/pre-commit \(git runs these hooks/),
      });
    } finally {
      fs.unlinkSync(path.join(box.root, 'hooks-link'));
    }
  });
});
