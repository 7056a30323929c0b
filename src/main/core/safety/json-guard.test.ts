import { describe, expect, it } from 'vitest';
import { AGENT_JSON_LIMITS, checkJsonShape, describeJsonProblem } from './json-guard';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

describe('checkJsonShape', () => {
  it('passes a real permission request', () => {
    const request = {
      sessionId: 's',
      toolCall: {
        toolCallId: 't',
        title: 'Edit a.ts',
        kind: 'edit',
        locations: [{ path: '/w/a.ts', line: 3 }],
        content: [
          {
            type: 'diff',
            path: '/w/a.ts',
            oldText: 'a\n'.repeat(10_000),
            newText: 'b\n'.repeat(10_000),
          },
        ],
        rawInput: { file_path: '/w/a.ts', edits: [{ old: 'a', new: 'b' }] },
      },
      options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
    };
    expect(checkJsonShape(request)).toBeNull();
  });

  it('walks without recursion: 200,000 levels are refused, not a stack overflow', () => {
    expect(checkJsonShape(nested(200_000))).toMatchObject({ problem: 'too_deep', limit: 64 });
    expect(checkJsonShape(nested(64))).toBeNull();
    expect(checkJsonShape(nested(65))).toMatchObject({ problem: 'too_deep' });
  });

  it('says where, with a bounded path and no payload', () => {
    const problem = checkJsonShape({ toolCall: { rawInput: nested(5_000) } })!;
    expect(problem.at.startsWith('$.toolCall.rawInput[0][0]')).toBe(true);
    expect(problem.at.length).toBeLessThan(250);
    expect(describeJsonProblem(problem)).toMatch(
      /^nested deeper than 64 levels at \$\.toolCall\.rawInput/,
    );
  });

  it('refuses too many values and too much text', () => {
    const many = new Array(AGENT_JSON_LIMITS.maxNodes).fill(0);
    expect(checkJsonShape({ many })).toMatchObject({ problem: 'too_many_values' });
    const big = 'x'.repeat(AGENT_JSON_LIMITS.maxStringBytes / 2);
    expect(checkJsonShape({ a: big })).toBeNull();
    expect(checkJsonShape({ a: big, b: big, c: 'x' })).toMatchObject({ problem: 'too_large' });
    expect(
      checkJsonShape({ a: 'é'.repeat(AGENT_JSON_LIMITS.maxStringBytes / 2 + 1) }),
    ).toMatchObject({
      problem: 'too_large',
    });
  });
});
