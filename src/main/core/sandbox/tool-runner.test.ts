import { describe, expect, it } from 'vitest';
import { askedOnce, runHere, ToolFailedError } from './tool-runner';
import { canDisableUserns } from './wrap';

describe('the sandbox’s own tools', () => {
  it('run here: stdout on success, and on failure an error that keeps what was said on stderr', async () => {
    expect(await runHere('/bin/sh', ['-c', 'echo out; echo err >&2'])).toBe('out\n');
    const failed = await runHere('/bin/sh', ['-c', 'echo "no namespaces" >&2; exit 1']).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ToolFailedError);
    expect(failed).toMatchObject({ stderr: 'no namespaces\n', ran: true });
    // A tool that never ran did not answer.
    await expect(runHere('/no/such/tool', [])).rejects.toMatchObject({ ran: false });
  });

  it('ask bubblewrap for --disable-userns once per binary, through the runner given; a failure is "no"', async () => {
    const asked: string[] = [];
    const helps: Record<string, () => Promise<string>> = {
      '/new/bwrap': () => Promise.resolve('usage: bwrap …\n    --disable-userns   Disable …\n'),
      '/old/bwrap': () => Promise.resolve('usage: bwrap …\n    --unshare-user\n'),
      '/broken/bwrap': () => Promise.reject(new ToolFailedError('exit code 1', '', true)),
    };
    const run = (command: string, args: readonly string[]) => {
      asked.push([command, ...args].join(' '));
      return helps[command]!();
    };
    expect(await canDisableUserns('/new/bwrap', run)).toBe(true);
    expect(await canDisableUserns('/new/bwrap', run)).toBe(true);
    expect(await canDisableUserns('/old/bwrap', run)).toBe(false);
    expect(await canDisableUserns('/broken/bwrap', run)).toBe(false);
    expect(asked).toEqual(['/new/bwrap --help', '/old/bwrap --help', '/broken/bwrap --help']);
  });

  it('never take a help that did not run for "no": the start fails, and the next one asks again', async () => {
    let lost = true;
    const run = () =>
      lost
        ? Promise.reject(new ToolFailedError('the agent launcher exited', '', false))
        : Promise.resolve('    --disable-userns\n');
    await expect(canDisableUserns('/lost/bwrap', run)).rejects.toThrow('launcher exited');
    lost = false;
    expect(await canDisableUserns('/lost/bwrap', run)).toBe(true);
  });

  it('ask once per key: callers meanwhile share the answer, which is kept; a failure is not', async () => {
    const asked: string[] = [];
    let fail = true;
    const find = askedOnce((key: string) => {
      asked.push(key);
      return fail ? Promise.reject(new Error(`no ${key}`)) : Promise.resolve(key.length);
    });
    const both = await Promise.allSettled([find('a'), find('a')]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await Promise.all([find('a'), find('a'), find('bb')])).toEqual([1, 1, 2]);
    fail = true;
    expect(await find('a')).toBe(1);
    expect(asked).toEqual(['a', 'a', 'bb']);
  });
});
