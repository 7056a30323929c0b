import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEMINI_POLICY, GEMINI_STATE_TOOLS, geminiPolicyArgs } from './gemini-policy';

type TomlValue = string | number | string[];

/** The `[[rule]]` tables of a TOML file whose values are strings, numbers and string arrays. */
function rulesOf(toml: string): Array<Record<string, TomlValue>> {
  const rules: Array<Record<string, TomlValue>> = [];
  const lines = toml.split('\n').filter((line) => line.trim() !== '' && !/^\s*#/.test(line));
  for (const line of lines) {
    if (line.trim() === '[[rule]]') {
      rules.push({});
      continue;
    }
    const match = /^(\w+) = (.+)$/.exec(line);
    if (!match || rules.length === 0) throw new Error(`unexpected line: ${line}`);
    (rules[rules.length - 1] as Record<string, TomlValue>)[match[1]!] = JSON.parse(match[2]!);
  }
  return rules;
}

/** Gemini CLI's choice (policy/policy-engine.js): the highest priority among matching rules. */
function decide(toolName: string, command?: string): string | undefined {
  const matching = rulesOf(GEMINI_POLICY).filter((rule) => {
    const names = Array.isArray(rule['toolName']) ? rule['toolName'] : [rule['toolName']];
    if (!names.includes(toolName) && !names.includes('*')) return false;
    const pattern = rule['argsPattern'];
    return pattern === undefined || new RegExp(pattern as string).test(JSON.stringify({ command }));
  });
  matching.sort((a, b) => (b['priority'] as number) - (a['priority'] as number));
  return matching[0]?.['decision'] as string | undefined;
}

describe('the policy Gemini CLI is started with', () => {
  it('asks for the tools its bundled policies allow, for writes, and for anything unknown', () => {
    for (const tool of [
      'read_file',
      'list_directory',
      'glob',
      'grep_search',
      'google_web_search',
      'web_fetch',
      'invoke_agent',
      'write_file',
      'replace',
      'mcp_server_tool',
    ]) {
      expect(decide(tool), tool).toBe('ask_user');
    }
  });

  it('asks for `ls` by a rule with an argsPattern, which Gemini’s safe-command heuristics skip', () => {
    const shell = rulesOf(GEMINI_POLICY).find((rule) => rule['toolName'] === 'run_shell_command');
    expect(shell).toMatchObject({ decision: 'ask_user', priority: 999 });
    expect(shell?.['argsPattern']).toEqual(expect.any(String));
    expect(decide('run_shell_command', 'ls')).toBe('ask_user');
    // It outranks the catch-all, which has no argsPattern and would let `ls` through.
    const catchAll = rulesOf(GEMINI_POLICY).find((rule) => rule['toolName'] === '*');
    expect(catchAll).toMatchObject({ decision: 'ask_user' });
    expect(catchAll?.['argsPattern']).toBeUndefined();
    expect(shell!['priority']).toBeGreaterThan(catchAll!['priority'] as number);
  });

  it('allows only tools that change Gemini CLI’s own state, in every mode', () => {
    for (const tool of GEMINI_STATE_TOOLS) expect(decide(tool), tool).toBe('allow');
    expect(GEMINI_STATE_TOOLS).toEqual(
      GEMINI_STATE_TOOLS.filter((tool) => /^(update_topic|complete_task|tracker_\w+)$/.test(tool)),
    );
    for (const rule of rulesOf(GEMINI_POLICY)) {
      expect(rule['modes']).toBeUndefined();
      expect(rule['priority']).toBeLessThanOrEqual(999);
    }
  });

  it('without it, the installed Gemini CLI allows reads and listings by its bundled policy', () => {
    const require = createRequire(import.meta.url);
    const bundle = dirname(require.resolve('@google/gemini-cli/package.json'));
    const readOnly = readFileSync(join(bundle, 'bundle/policies/read-only.toml'), 'utf8');
    expect(readOnly).toMatch(/"read_file"/);
    expect(readOnly).toMatch(/"list_directory"/);
    expect(readOnly).toMatch(/decision = "allow"/);
  });

  it('is named by --policy, and a path Gemini would split at its comma is refused', () => {
    expect(geminiPolicyArgs('/tmp/x/gatehouse-asks.toml')).toEqual([
      '--policy',
      '/tmp/x/gatehouse-asks.toml',
    ]);
    expect(() => geminiPolicyArgs('/tmp/a,b/gatehouse-asks.toml')).toThrow(/comma/);
  });
});
