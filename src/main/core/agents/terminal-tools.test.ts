import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyEdits, terminalToolCall } from './terminal-tools';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-terminal-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const claude = (tool: string, input: Record<string, unknown>) =>
  terminalToolCall('claude-code', tool, input, dir);
const gemini = (tool: string, input: Record<string, unknown>) =>
  terminalToolCall('gemini-cli', tool, input, dir);

describe('terminalToolCall', () => {
  it('takes the kind from the tool name, never from the input', async () => {
    const call = await claude('Read', { file_path: 'a.txt', kind: 'read', command: 'rm -rf /' });
    expect(call.kind).toBe('read');
    expect(call.locations).toEqual([{ path: join(dir, 'a.txt') }]);
    expect((await claude('mcp__x__run', { kind: 'read' })).kind).toBe('other');
    // A name of the other CLI is not known here.
    expect((await claude('read_file', { file_path: 'a' })).kind).toBe('other');
    expect(await gemini('run_shell_command', { command: 'ls' })).toMatchObject({
      kind: 'execute',
      title: 'ls',
    });
  });

  it('an edit shows the file on disk before and after, every edit applied', async () => {
    const file = join(dir, 'f.txt');
    writeFileSync(file, 'a b a\n');
    const edit = await claude('Edit', { file_path: file, old_string: 'a', new_string: 'x' });
    expect(edit.content).toEqual([
      { type: 'diff', path: file, oldText: 'a b a\n', newText: 'x b a\n' },
    ]);
    const multi = await claude('MultiEdit', {
      file_path: file,
      edits: [
        { old_string: 'a', new_string: 'y', replace_all: true },
        { old_string: 'b', new_string: 'z' },
      ],
    });
    expect(multi.content[0]).toMatchObject({ oldText: 'a b a\n', newText: 'y z y\n' });
    const replace = await gemini('replace', { file_path: file, old_string: 'b', new_string: 'q' });
    expect(replace.content[0]).toMatchObject({ newText: 'a q a\n' });
    const write = await gemini('write_file', { file_path: join(dir, 'new.txt'), content: 'hi' });
    expect(write.content[0]).toMatchObject({ oldText: null, newText: 'hi' });
  });

  it('an edit that does not apply shows the fragments asked for', async () => {
    const file = join(dir, 'g.txt');
    writeFileSync(file, 'text\n');
    const call = await claude('Edit', { file_path: file, old_string: 'missing', new_string: 'x' });
    expect(call.content[0]).toMatchObject({ oldText: 'missing', newText: 'x' });
    expect(applyEdits('abc', [{ old: '', new: 'x', all: false }])).toBeNull();
  });
});
