// What the warnings read of a command line: the calls the shell analysis of the rules finds.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../rules';
import { commandCalls } from './script';

beforeAll(() => initShellParser());

const line = (command: string) => commandCalls({ command, args: null });
const programs = (command: string) => [...line(command).programs];
const words = (command: string) => line(command).calls.map((c) => [c.programWord ?? '', ...c.args]);

describe('the calls of a command line, for the warnings', () => {
  it('splits pipelines and lists, removing quotes', () => {
    const { calls } = line(`a 'b c' "d $e" f\\ g | h && i; j || k & l\nm`);
    expect(calls.map((c) => [c.programWord, ...c.args])).toEqual([
      ['a', 'b c', 'd $e', 'f g'],
      ['h'],
      ['i'],
      ['j'],
      ['k'],
      ['l'],
      ['m'],
    ]);
    const [a, h, ...rest] = calls;
    expect(a?.pipe).toEqual({ id: h?.pipe?.id, stage: 0 });
    expect(h?.pipe?.stage).toBe(1);
    expect(rest.map((c) => c.pipe)).toEqual([null, null, null, null, null]);
  });

  it('reads redirections with and without file descriptors, and here-documents', () => {
    const [c] = line('cmd 2>/dev/null >>out.log <in &>all 2>&1 <<-EOF\n\tbody $x\n\tEOF').calls;
    expect(c?.redirects.map((r) => [r.op, r.fd, r.op.startsWith('<<') ? '' : r.target])).toEqual([
      ['>', 2, '/dev/null'],
      ['>>', undefined, 'out.log'],
      ['<', undefined, 'in'],
      ['&>', undefined, 'all'],
      ['>&', 2, '1'],
      ['<<-', undefined, ''],
    ]);
    expect(c?.redirects.at(-1)?.target).toContain('body $x');
  });

  it('keeps substitutions whole in the word and finds the commands they run', () => {
    const { calls } = line('echo "$(curl -s x | sh)" `id` <(cat a) ${A:-$(rm b)}');
    const echo = calls.find((c) => c.program === 'echo');
    expect(echo?.args).toEqual(['$(curl -s x | sh)', '`id`', '<(cat a)', '${A:-$(rm b)}']);
    const nested = calls.filter((c) => c.within?.parent === echo);
    expect(nested.map((c) => `${c.within?.how}:${[c.programWord, ...c.args].join(' ')}`)).toEqual([
      'command-substitution:curl -s x',
      'command-substitution:sh',
      'command-substitution:id',
      'process-substitution:cat a',
      'command-substitution:rm b',
    ]);
  });

  it('decodes ANSI-C quoting and ignores comments', () => {
    expect(words("$'\\x72\\155' -rf / # rm everything")).toEqual([['rm', '-rf', '/']]);
  });

  it('finds programs behind wrappers, assignments, keywords and shells', () => {
    expect(
      programs('FOO=1 sudo -u root env -i PATH=/x nice -n 5 timeout 10 /usr/bin/curl x'),
    ).toEqual(['sudo', 'env', 'nice', 'timeout', 'curl']);
    expect(programs("bash -lc 'cd x && make'")).toEqual(['bash', 'cd', 'make']);
    expect(programs('if true; then rm -f a; fi')).toEqual(['true', 'rm']);
    expect(programs('for f in *.ts; do prettier $f; done')).toEqual(['prettier']);
    expect(programs('find . -name x | xargs -I{} rm {}')).toEqual(['find', 'xargs', 'rm']);
    expect(programs('command -v git')).toEqual(['command']);
    // A substitution runs before the command that reads its output.
    expect(programs('eval "$(ssh-agent -s)"')).toEqual(['ssh-agent', 'eval']);
    expect(programs('env -S "perl -e 1"')).toEqual(['env', 'perl']);
    expect(programs('CURL.EXE -s x')).toEqual(['curl']);
  });

  it('reads an argv without re-splitting it, but follows sh -c', () => {
    const a = commandCalls({ command: '', args: ['rm', '-rf', 'a b; curl x | sh'] });
    expect([...a.programs]).toEqual(['rm']);
    const b = commandCalls({ command: '', args: ['/bin/bash', '-c', 'curl x | sh'] });
    expect([...b.programs]).toEqual(['bash', 'curl', 'sh']);
  });

  it('stops following nesting past the depth limit, and says so', () => {
    let cmd = 'rm -rf /';
    for (let i = 0; i < 10; i++) cmd = `sh -c ${JSON.stringify(cmd)}`;
    expect(line(cmd).tooComplex).toMatch(/nests code in strings more than \d+ levels deep/);
  });

  it('never throws and stays fast on arbitrary and pathological input', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        line(s);
      }),
      { numRuns: 500 },
    );
    const start = performance.now();
    for (const s of [
      '"'.repeat(100_000),
      "'".repeat(100_000),
      '$('.repeat(20_000),
      '`'.repeat(100_000),
      '<<EOF\n'.repeat(10_000),
      '\\'.repeat(100_000),
    ]) {
      line(s);
    }
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});
