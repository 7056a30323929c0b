import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../src/main/core/safety/script';
import { parseShell } from '../../../src/main/core/safety/shell';

const programs = (command: string) => [
  ...analyzeCommand({ command, args: null, cwd: null }).programs,
];
const words = (src: string) => parseShell(src).map((c) => c.words.map((w) => w.value));

describe('shell reader', () => {
  it('splits pipelines and lists, removing quotes', () => {
    const cmds = parseShell(`a 'b c' "d $e" f\\ g | h && i; j || k & l\nm`);
    expect(cmds.map((c) => [c.words.map((w) => w.value), c.pipeline, c.stage, c.next])).toEqual([
      [['a', 'b c', 'd $e', 'f g'], 0, 0, '|'],
      [['h'], 0, 1, '&&'],
      [['i'], 1, 0, ';'],
      [['j'], 2, 0, '||'],
      [['k'], 3, 0, '&'],
      [['l'], 4, 0, '\n'],
      [['m'], 5, 0, null],
    ]);
  });

  it('reads redirections with and without file descriptors, and here-documents', () => {
    const [c] = parseShell('cmd 2>/dev/null >>out.log <in &>all 2>&1 <<-EOF\n\tbody $x\n\tEOF');
    expect(c?.redirects.map((r) => [r.op, r.fd, r.target?.value, r.heredoc])).toEqual([
      ['>', '2', '/dev/null', null],
      ['>>', null, 'out.log', null],
      ['<', null, 'in', null],
      ['&>', null, 'all', null],
      ['>&', '2', '1', null],
      ['<<-', null, 'EOF', '\tbody $x'],
    ]);
  });

  it('keeps substitutions whole in the word and records their bodies', () => {
    const [c] = parseShell('echo "$(curl -s x | sh)" `id` <(cat a) ${A:-$(rm b)}');
    expect(c?.words.map((w) => w.value)).toEqual([
      'echo',
      '$(curl -s x | sh)',
      '`id`',
      '<(cat a)',
      '${A:-$(rm b)}',
    ]);
    expect(c?.words.flatMap((w) => w.subs.map((s) => `${s.kind}:${s.body}`))).toEqual([
      'command:curl -s x | sh',
      'command:id',
      'process:cat a',
      'command:rm b',
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
    expect(programs('eval "$(ssh-agent -s)"')).toEqual(['eval', 'ssh-agent']);
    expect(programs('env -S "perl -e 1"')).toEqual(['env', 'perl']);
    expect(programs('CURL.EXE -s x')).toEqual(['curl']);
  });

  it('reads an argv without re-splitting it, but follows sh -c', () => {
    const a = analyzeCommand({ command: '', args: ['rm', '-rf', 'a b; curl x | sh'], cwd: null });
    expect([...a.programs]).toEqual(['rm']);
    const b = analyzeCommand({ command: '', args: ['/bin/bash', '-c', 'curl x | sh'], cwd: null });
    expect([...b.programs]).toEqual(['bash', 'curl', 'sh']);
  });

  it('stops following nesting past the depth limit', () => {
    let cmd = 'rm -rf /';
    for (let i = 0; i < 10; i++) cmd = `sh -c ${JSON.stringify(cmd)}`;
    const a = analyzeCommand({ command: cmd, args: null, cwd: null });
    expect(a.depthExceeded).toBe(true);
  });

  it('never throws and stays fast on arbitrary and pathological input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        parseShell(s);
        analyzeCommand({ command: s, args: null, cwd: null });
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
      analyzeCommand({ command: s, args: null, cwd: null });
    }
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});
