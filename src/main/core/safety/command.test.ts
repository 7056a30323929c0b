import { describe, expect, it } from 'vitest';
import { CommandView } from '../../../shared/domain';
import { extractCommand, normalizeToolCall, quoteArgv } from '.';
import { SESSION, claudeBash, geminiShell } from './helpers.test-support';

function command(raw: unknown, cwd = SESSION) {
  const view = extractCommand(normalizeToolCall(raw), cwd);
  if (view) CommandView.parse(view);
  return view;
}

/** An execute tool call with nothing of note but its `rawInput`. */
const execute = (rawInput: unknown) => ({ toolCallId: 'a', kind: 'execute', title: 't', rawInput });

describe('extractCommand — per agent', () => {
  it('Claude Code (claude-agent-acp Bash): rawInput.command, no cwd stated', () => {
    expect(command(claudeBash('npm test -- --watch=false', 'Run the unit tests'))).toEqual({
      command: 'npm test -- --watch=false',
      args: null,
      cwd: null,
      source: 'rawInput',
    });
  });

  it('Gemini CLI 0.6x: no rawInput, the title is the command, cwd from "[in DIR]"', () => {
    expect(command(geminiShell('ls -la', 'src', 'List files'))).toEqual({
      command: 'ls -la',
      args: null,
      cwd: `${SESSION}/src`,
      source: 'title',
    });
    expect(command(geminiShell('npm run build'))).toEqual({
      command: 'npm run build',
      args: null,
      cwd: SESSION,
      source: 'title',
    });
    expect(command(geminiShell('sleep 100 &', '/abs/dir', 'wait [a]'))?.cwd).toBe('/abs/dir');
  });

  it('Gemini: a directory that cannot be delimited unambiguously is unknown, not guessed', () => {
    const raw = geminiShell('ls', 'a] (b', 'c');
    expect(command(raw)?.cwd).toBeNull();
    expect(command(raw)?.command).toBe('ls');
  });

  it('does not take a descriptive title for a command when the request is not Gemini-shaped', () => {
    expect(command({ toolCallId: 'x', kind: 'execute', title: 'Running tests' })).toBeNull();
    expect(
      command({
        toolCallId: 'x',
        kind: 'execute',
        title: 'Running tests',
        content: [{ type: 'content', content: { type: 'text', text: 'Running the test suite' } }],
      }),
    ).toBeNull();
    // Codex (agentclientprotocol) without a command: rawInput null, nothing to show.
    expect(command({ toolCallId: 'x', kind: 'execute', rawInput: null })).toBeNull();
    // Same content shape but not an execute request.
    expect(command({ ...geminiShell('ls'), kind: 'read' })).toBeNull();
  });

  it('older Gemini / Qwen Code: rawInput { command, directory | dir_path, description }', () => {
    expect(
      command({
        toolCallId: 'q',
        kind: 'execute',
        title: 'npm test [in packages/core] (Run tests)',
        rawInput: {
          command: 'npm test',
          directory: 'packages/core',
          description: 'Run tests',
          is_background: false,
        },
      }),
    ).toEqual({
      command: 'npm test',
      args: null,
      cwd: `${SESSION}/packages/core`,
      source: 'rawInput',
    });
    expect(
      command({
        toolCallId: 'g',
        kind: 'execute',
        title: 'ls',
        rawInput: { command: 'ls', dir_path: '../other' },
      })?.cwd,
    ).toBe('/home/dev/other');
  });

  it('Codex (zed-industries/codex-acp): argv array and cwd, even under a read kind', () => {
    const raw = {
      toolCallId: 'call_1',
      kind: 'read',
      title: 'Read package.json',
      rawInput: {
        call_id: 'call_1',
        command: ['bash', '-lc', "cat package.json | jq '.scripts'"],
        cwd: '/home/dev/project',
        reason: null,
        parsed_cmd: [{ type: 'read', cmd: 'cat package.json', name: 'package.json' }],
      },
    };
    expect(command(raw)).toEqual({
      command: `bash -lc 'cat package.json | jq '\\''.scripts'\\'''`,
      args: ['bash', '-lc', "cat package.json | jq '.scripts'"],
      cwd: '/home/dev/project',
      source: 'rawInput',
    });
  });

  it('Codex (agentclientprotocol/codex-acp): command string and cwd, no title', () => {
    const snap = normalizeToolCall({
      toolCallId: 'item_1',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'cargo test', cwd: '/w' },
    });
    expect(snap.title).toBe('Untitled execute request: cargo test');
    expect(extractCommand(snap, SESSION)).toEqual({
      command: 'cargo test',
      args: null,
      cwd: '/w',
      source: 'rawInput',
    });
  });

  it('opencode: rawInput { command, workdir }; metadata without a command gives none', () => {
    expect(
      command({
        toolCallId: 'o',
        kind: 'execute',
        title: 'bash',
        rawInput: {
          command: 'bun test',
          workdir: '/home/dev/project/app',
          description: 'Run tests',
        },
      }),
    ).toEqual({
      command: 'bun test',
      args: null,
      cwd: '/home/dev/project/app',
      source: 'rawInput',
    });
    expect(command({ toolCallId: 'o', kind: 'execute', title: 'bash', rawInput: {} })).toBeNull();
  });

  it('generic fallback: cmd, script, argv, nested input, exec-style command + args', () => {
    expect(command(execute({ cmd: 'make all' }))?.command).toBe('make all');
    expect(command(execute({ script: 'echo hi' }))?.command).toBe('echo hi');
    expect(command(execute({ argv: ['ls', '-l', 'my dir'] }))).toEqual({
      command: "ls -l 'my dir'",
      args: ['ls', '-l', 'my dir'],
      cwd: null,
      source: 'rawInput',
    });
    expect(
      command({
        toolCallId: 'a',
        kind: 'execute',
        title: 't',
        rawInput: { input: { command: 'pytest', cwd: 'tests' } },
      }),
    ).toEqual({
      command: 'pytest',
      args: null,
      cwd: `${SESSION}/tests`,
      source: 'rawInput',
    });
    expect(command(execute({ command: 'git', args: ['push', '--force'] }))).toEqual({
      command: 'git push --force',
      args: ['git', 'push', '--force'],
      cwd: null,
      source: 'rawInput',
    });
    expect(
      command({ toolCallId: 'a', kind: 'execute', title: 't', rawInput: 'rm -rf /tmp/x' })?.command,
    ).toBe('rm -rf /tmp/x');
  });

  it('reads loose names (cmd/script/argv) only for execute requests; `command` for any kind', () => {
    expect(
      command({
        toolCallId: 'a',
        kind: 'other',
        title: 't',
        rawInput: { script: 'console.log(1)' },
      }),
    ).toBeNull();
    expect(
      command({ toolCallId: 'a', kind: 'search', title: 't', rawInput: { command: 'rg TODO' } })
        ?.command,
    ).toBe('rg TODO');
    expect(
      command({
        toolCallId: 'a',
        kind: 'edit',
        title: 'Edit a.ts',
        rawInput: { file_path: '/p/a.ts' },
      }),
    ).toBeNull();
  });

  it('ignores malformed command values', () => {
    for (const value of [42, null, [], [1, 2], { a: 1 }, ['ok', 3]]) {
      expect(command(execute({ command: value }))).toBeNull();
    }
  });

  it('never truncates, whatever the length', () => {
    const long = `echo ${'a'.repeat(200_000)} && rm -rf /`;
    expect(command(claudeBash(long))?.command).toBe(long);
  });

  it('keeps `~` in a stated cwd as written and does not resolve against a relative session folder', () => {
    expect(command(execute({ command: 'ls', cwd: '~/x' }))?.cwd).toBe('~/x');
    expect(command(execute({ command: 'ls', cwd: 'sub' }), 'relative')?.cwd).toBe('sub');
    expect(command(execute({ command: 'ls', cwd: '/a/b/../c' }))?.cwd).toBe('/a/c');
  });
});

describe('quoteArgv', () => {
  it('quotes only what needs quoting and round-trips single quotes', () => {
    expect(quoteArgv(['echo', 'a b', "it's", '', '$HOME', 'x=1', '--flag=/p/q'])).toBe(
      `echo 'a b' 'it'\\''s' '' '$HOME' x=1 --flag=/p/q`,
    );
  });
});
