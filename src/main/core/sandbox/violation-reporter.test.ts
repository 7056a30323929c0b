import { describe, expect, it } from 'vitest';
import { createViolationReporter, type SandboxViolation } from './violation-reporter';
import { networkViolationsIn } from './violations';

function reporter() {
  let now = 0;
  const seen: SandboxViolation[] = [];
  const r = createViolationReporter(
    (v) => seen.push(v),
    () => now,
  );
  return { r, seen, advance: (ms: number) => (now += ms) };
}

describe('networkViolationsIn', () => {
  it('reads connections the sandbox network stopped, not those a remote refused', () => {
    const stderr = [
      'Error: connect ECONNREFUSED 127.0.0.1:7878',
      'Error: connect ENETUNREACH 140.82.112.3:443',
      'Error: connect ECONNREFUSED 10.0.0.5:5432',
    ].join('\n');
    expect(networkViolationsIn(stderr)).toEqual([
      { kind: 'network', host: '127.0.0.1', port: 7878, reason: 'refused-inside-sandbox' },
      { kind: 'network', host: '140.82.112.3', port: 443, reason: 'refused-inside-sandbox' },
    ]);
  });
});

describe('Unix sockets the filter stopped', () => {
  it('are read from Node errors and reported as connections to their path', () => {
    const { r, seen } = reporter();
    r.stderr('Error: connect EPERM /run/user/1000/bus\n    at PipeConnectWrap.afterConnect\n');
    r.stderr(
      "Error: connect ECONNREFUSED /tmp/x.sock\nError: EPERM: operation not permitted, open '/a'\n",
    );
    expect(seen.map(({ kind, target, reason }) => ({ kind, target, reason }))).toEqual([
      { kind: 'network', target: '/run/user/1000/bus', reason: 'unix-socket-closed' },
      { kind: 'file', target: '/a', reason: 'EPERM' },
    ]);
  });
});

describe('createViolationReporter', () => {
  it('reports a refusal from complete stderr lines, split across chunks', () => {
    const { r, seen } = reporter();
    r.stderr("Error: EROFS: read-only file system, open '/etc/");
    expect(seen).toEqual([]);
    r.stderr("hosts'\nError: connect ECONNREFUSED 127.0.0.1:9\n");
    expect(seen).toEqual([
      {
        kind: 'file',
        target: '/etc/hosts',
        path: '/etc/hosts',
        reason: 'EROFS',
        suppressed: 0,
        repeated: false,
      },
      {
        kind: 'network',
        target: '127.0.0.1:9',
        host: '127.0.0.1',
        port: 9,
        reason: 'refused-inside-sandbox',
        suppressed: 0,
        repeated: false,
      },
    ]);
  });

  it('reports the same target once a minute and counts what it held back', () => {
    const { r, seen, advance } = reporter();
    const refuse = () =>
      r.network({ kind: 'network', host: 'evil.example', port: 443, reason: 'not-allowed' });
    refuse();
    refuse();
    expect(seen).toHaveLength(1);
    advance(60_000);
    refuse();
    expect(seen.map((v) => v.suppressed)).toEqual([0, 1]);
  });

  it('reports the third refusal of a target at once, as repeated, and only that one', () => {
    const { r, seen, advance } = reporter();
    const refuse = () => r.stderr("Error: EROFS: read-only file system, open '/etc/hosts'\n");
    for (let i = 0; i < 6; i += 1) refuse();
    expect(seen.map((v) => [v.repeated, v.suppressed])).toEqual([
      [false, 0],
      [true, 1],
    ]);
    advance(60_000);
    refuse();
    expect(seen.at(-1)).toMatchObject({ repeated: false, suppressed: 3 });
  });

  it('a repeated target is reported even when the minute is full', () => {
    const { r, seen } = reporter();
    for (let i = 0; i < 30; i += 1)
      r.stderr(`Error: EROFS: read-only file system, open '/x/${i}'\n`);
    r.stderr("Error: EROFS: read-only file system, open '/x/0'\n");
    r.stderr("Error: EROFS: read-only file system, open '/x/0'\n");
    expect(seen).toHaveLength(31);
    expect(seen.at(-1)).toMatchObject({ target: '/x/0', repeated: true });
  });

  it('a flood of distinct targets is at most 30 reports a minute', () => {
    const { r, seen, advance } = reporter();
    for (let i = 0; i < 500; i += 1)
      r.stderr(`Error: EROFS: read-only file system, open '/x/${i}'\n`);
    expect(seen).toHaveLength(30);
    advance(60_000);
    r.stderr("Error: EROFS: read-only file system, open '/y'\n");
    expect(seen.at(-1)).toMatchObject({ target: '/y', suppressed: 470 });
  });
});

describe('the shells’ stderr beside the agent’s', () => {
  it('keeps each stream’s unfinished line apart, so that interleaved pieces still read whole', () => {
    const { r, seen } = reporter();
    r.stderr('some agent noise about /etc/');
    r.shellStderr('bash: line 1: /home/ada/.bash');
    r.stderr('passwd, still going\n');
    r.shellStderr('rc: Read-only file system\n');
    expect(seen.map((v) => [v.target, v.reason])).toEqual([['/home/ada/.bashrc', 'EROFS']]);
  });
});
