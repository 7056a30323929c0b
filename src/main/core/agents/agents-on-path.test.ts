import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentsOnPath, knownAgents } from './agents-on-path';

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

  it("skips Gatehouse's own install: its node_modules/.bin (npm scripts put it first) and those above it", async () => {
    const parent = folder({});
    const root = join(parent, 'gatehouse');
    for (const bin of [join(root, 'node_modules', '.bin'), join(parent, 'node_modules', '.bin')]) {
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'gemini'), '#!/bin/sh\n');
      chmodSync(join(bin, 'gemini'), 0o755);
    }
    const users = folder({ 'codex-acp': 'exec' });
    const path = [
      join(root, 'node_modules', '.bin'),
      join(parent, 'node_modules', '.bin'),
      users,
    ].join(delimiter);
    // Without knowing the install, its dependencies look like the person's agents.
    expect((await agentsOnPath(path, new Set())).map((a) => a.id)).toEqual(['gemini', 'codex']);
    const found = await agentsOnPath(path, new Set(), root);
    expect(found.map((a) => [a.id, a.command])).toEqual([['codex', join(users, 'codex-acp')]]);
    // The known list says Gemini CLI is not installed, and how it runs without an install.
    const gemini = (await knownAgents(path, root)).find((a) => a.id === 'gemini');
    expect(gemini).toMatchObject({
      found: false,
      command: 'npx',
      args: ['@google/gemini-cli', '--acp'],
    });
    // Codex, not found outside the install either, runs as the registry's renamed package.
    const codex = (await knownAgents(join(root, 'node_modules', '.bin'), root)).find(
      (a) => a.id === 'codex',
    );
    expect(codex).toMatchObject({
      found: false,
      command: 'npx',
      args: ['@agentclientprotocol/codex-acp'],
    });
  });
});
