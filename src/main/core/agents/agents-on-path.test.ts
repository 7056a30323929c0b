import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentsOnPath } from './agents-on-path';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, 'exec' | 'plain' | 'dir'>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-path-'));
  made.push(dir);
  for (const [name, kind] of Object.entries(files)) {
    const path = join(dir, name);
    if (kind === 'dir') mkdirSync(path);
    else {
      writeFileSync(path, '#!/bin/sh\n');
      chmodSync(path, kind === 'exec' ? 0o755 : 0o644);
    }
  }
  return dir;
}

describe('agentsOnPath', () => {
  it('offers the known agents whose program is an executable file on PATH, first folder first', async () => {
    const first = folder({ gemini: 'exec', goose: 'plain', 'codex-acp': 'dir' });
    const second = folder({ gemini: 'exec', opencode: 'exec' });
    const found = await agentsOnPath([first, second].join(delimiter), new Set());
    expect(found).toEqual([
      {
        id: 'gemini',
        name: 'Gemini CLI',
        command: join(first, 'gemini'),
        args: ['--acp'],
        note: null,
      },
      {
        id: 'opencode',
        name: 'opencode',
        command: join(second, 'opencode'),
        args: ['acp'],
        note: expect.stringContaining('allowUnguarded'),
      },
    ]);
  });

  it('leaves out agents already configured, relative PATH folders, and programs it does not know', async () => {
    const dir = folder({ gemini: 'exec', 'claude-agent-acp': 'exec', 'evil-agent': 'exec' });
    const found = await agentsOnPath(['.', 'bin', dir].join(delimiter), new Set(['gemini']));
    expect(found.map((a) => a.id)).toEqual(['claude']);
    expect(await agentsOnPath(`.${delimiter}relative`, new Set())).toEqual([]);
  });
});
