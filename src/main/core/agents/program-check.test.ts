import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { programProblem } from './program-check';

describe('programProblem', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-program-'));
  writeFileSync(join(dir, 'agent'), '#!/bin/sh\n');
  chmodSync(join(dir, 'agent'), 0o755);
  writeFileSync(join(dir, 'plain'), 'not a program');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts an executable on the PATH or by absolute path', () => {
    expect(programProblem('agent', ['relative', dir].join(delimiter))).toBeNull();
    expect(programProblem(join(dir, 'agent'), '')).toBeNull();
  });

  it('names the program that is not there, not executable, or given relative', () => {
    expect(programProblem('agent', 'relative')).toBe(
      'command not found: "agent" is not a program on the PATH Gatehouse starts agents with',
    );
    expect(programProblem(join(dir, 'plain'), '')).toMatch(/^command not found: ".*plain" is not/);
    expect(programProblem('./agent', dir)).toMatch(/is a relative path/);
    expect(programProblem(dir, '')).toMatch(/not an executable file/);
  });
});
