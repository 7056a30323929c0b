import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherCall, LauncherCommandError } from './launcher-command';
import { fetchLauncher, LauncherFetchError } from './launcher-fetch';

describe('the package a launcher command line runs', () => {
  it.each([
    [
      'npx',
      ['-y', '@google/gemini-cli', '--acp'],
      { tool: 'npx', spec: '@google/gemini-cli', name: '@google/gemini-cli', args: ['--acp'] },
    ],
    [
      '/usr/bin/npx',
      ['--yes', '--', 'pkg@^1.2', '-v'],
      { tool: 'npx', spec: 'pkg@^1.2', name: 'pkg', args: ['-v'] },
    ],
    ['npm', ['exec', 'pkg@latest'], { tool: 'npx', spec: 'pkg@latest', name: 'pkg', args: [] }],
    [
      'npx',
      ['-p', '@scope/pkg@2.0.0', 'its-bin', 'x'],
      { spec: '@scope/pkg@2.0.0', name: '@scope/pkg', bin: 'its-bin', args: ['x'] },
    ],
    ['pnpm', ['dlx', 'pkg', 'acp'], { tool: 'pnpm dlx', spec: 'pkg', args: ['acp'] }],
    ['bunx', ['pkg'], { tool: 'bunx', spec: 'pkg' }],
    ['uvx', ['fast-agent-acp==0.2.1', '-x'], { tool: 'uvx', name: 'fast-agent-acp', args: ['-x'] }],
    ['uv', ['tool', 'run', '--from', 'pkg', 'cmd'], { tool: 'uvx', spec: 'pkg', bin: 'cmd' }],
  ])('%s %j', (command, args, expected) => {
    expect(launcherCall(command, args)).toMatchObject(expected);
  });

  it('is null for any other command', () => {
    expect(launcherCall('node', ['npx'])).toBeNull();
    expect(launcherCall('npm', ['install', 'x'])).toBeNull();
    expect(launcherCall('/opt/npx-like/gemini', ['--acp'])).toBeNull();
  });

  it.each([
    ['npx', ['./local-folder']],
    ['npx', ['github:owner/repo']],
    ['npx', ['https://example.com/x.tgz']],
    ['npx', ['pkg@file:../x']],
    ['npx', ['--registry', 'http://evil', 'pkg']],
    ['npx', ['-c', 'sh -c evil']],
    ['npx', ['--yes']],
    ['uvx', ['git+https://example.com/x']],
  ])('refuses what it cannot fetch as a registry package: %s %j', (command, args) => {
    expect(() => launcherCall(command, args)).toThrow(LauncherCommandError);
  });
});

describe('a launcher whose tool is missing', () => {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-launcher-unit-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const noTools = { PATH: join(home, 'no-bin') };

  it.each([
    ['uvx', ['some-agent'], /uvx needs uv, which is not installed .*docs\.astral\.sh\/uv/],
    ['bunx', ['some-agent'], /bunx needs bun, which is not installed .*bun\.sh/],
    ['npx', ['some-agent'], /npx needs npm, which is not installed/],
  ])('%s names the tool to install', async (command, args, message) => {
    const call = launcherCall(command, args)!;
    const fetch = fetchLauncher(call, home, noTools);
    await expect(fetch).rejects.toThrow(LauncherFetchError);
    await expect(fetch).rejects.toThrow(message);
  });
});
