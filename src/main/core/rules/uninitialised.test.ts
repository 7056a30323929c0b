// Runs in its own module graph (vitest isolates test files), so the parser is not initialised.
import { describe, expect, it } from 'vitest';
import { analyzeCommand, evaluate, initShellParser, isShellParserReady } from '.';

describe('before initShellParser()', () => {
  it('analyzeCommand and evaluate on a command throw a clear error', () => {
    expect(isShellParserReady()).toBe(false);
    expect(() => analyzeCommand('ls')).toThrow(/initShellParser/);
    expect(() => analyzeCommand('x'.repeat(200_000))).toThrow(/initShellParser/);
    expect(() =>
      evaluate(
        { agentId: 'a', sessionId: 's', sessionCwd: '/p', toolKind: 'execute', command: 'ls' },
        { rules: [], grants: [], now: 0 },
      ),
    ).toThrow(/initShellParser/);
  });

  it('requests without a command do not need the parser', () => {
    const r = evaluate(
      { agentId: 'a', sessionId: 's', sessionCwd: '/p', toolKind: 'read', paths: ['x'] },
      { rules: [], grants: [], now: 0 },
    );
    expect(r.verdict).toBe('ask');
  });

  it('a failed load rejects, leaves the parser unready, and can be retried', async () => {
    await expect(
      initShellParser({ grammarWasmPath: '/nonexistent/tree-sitter-bash.wasm' }),
    ).rejects.toThrow();
    expect(isShellParserReady()).toBe(false);
    expect(() => analyzeCommand('ls')).toThrow(/initShellParser/);
  });

  it('initialises once, concurrently, and then works', async () => {
    await Promise.all([initShellParser(), initShellParser(), initShellParser()]);
    expect(isShellParserReady()).toBe(true);
    expect(analyzeCommand('ls').kind).toBe('simple');
    // Later calls are no-ops, whatever their options.
    await expect(
      initShellParser({ grammarWasmPath: '/nonexistent.wasm' }),
    ).resolves.toBeUndefined();
  });
});
