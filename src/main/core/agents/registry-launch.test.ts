import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Registry } from '../../../shared/registry-format';
import { AgentConfig } from '../../../shared/settings';
import { registryFixture } from '../../../../test/support/registry-fixture';
import { knownProgramFor } from '../sandbox/known-agents';
import { launcherCall } from '../sandbox/launcher-command';
import { parseRegistry, RegistryFileError } from './registry-snapshot';
import { launchFamily } from './side-doors';
import {
  launchableAgent,
  registryBinaryFolder,
  registryPlatform,
  RegistryAgentError,
  type RegistryHost,
} from './registry-launch';

const registry = Registry.parse(registryFixture());
let userHome: string;
const linux = (): RegistryHost => ({ platform: 'linux', arch: 'x64', userHome });
const resolveOn = (id: string, host: RegistryHost, extra: object = {}) =>
  launchableAgent('mine', AgentConfig.parse({ registry: id, ...extra }), () => registry, host);

beforeEach(() => {
  userHome = mkdtempSync(join(tmpdir(), 'gatehouse-user-'));
});
afterEach(() => rmSync(userHome, { recursive: true, force: true }));

describe('registry agents', () => {
  it('npx: the package second, the registry args, then the agent own; every other setting kept', () => {
    const agent = resolveOn('gemini', linux(), {
      args: ['--model', 'x'],
      env: { npm_config_prefer_offline: 'false' },
      sandbox: 'read-only',
      bypassPermissions: true,
    });
    expect(agent).toMatchObject({
      name: 'Gemini CLI',
      command: 'npx',
      args: ['--yes', '@google/gemini-cli@0.27.3', '--experimental-acp', '--model', 'x'],
      env: { npm_config_prefer_offline: 'false' },
      sandbox: 'read-only',
      bypassPermissions: true,
    });
    // What Gatehouse knows of Gemini CLI (the policy that makes it ask) still applies.
    expect(knownProgramFor(agent.command, agent.args)).not.toBeNull();
  });

  it('npx prefers the npm cache unless the agent says otherwise; uvx runs its package', () => {
    expect(resolveOn('gemini', linux()).env).toEqual({ npm_config_prefer_offline: 'true' });
    expect(resolveOn('mistral-vibe', linux())).toMatchObject({
      command: 'uvx',
      args: ['mistral-vibe@2.0.2', 'acp'],
      env: {},
    });
  });

  it('maps process.platform and arch onto the registry keys', () => {
    expect(registryPlatform('linux', 'x64')).toBe('linux-x86_64');
    expect(registryPlatform('darwin', 'arm64')).toBe('darwin-aarch64');
    expect(registryPlatform('win32', 'x64')).toBe('windows-x86_64');
    expect(registryPlatform('linux', 'ia32')).toBeNull();
    expect(registryPlatform('freebsd', 'x64')).toBeNull();
  });

  it('binary: runs only what the person unpacked, in its own folder', () => {
    const droid = registry.agents.find((a) => a.id === 'factory-droid')!;
    const folder = registryBinaryFolder(droid, userHome);
    expect(() => resolveOn('factory-droid', linux())).toThrow(
      `registry agent "factory-droid" 0.43.0 is a binary Gatehouse does not download: unpack ` +
        `https://downloads.factory.ai/factory-cli/releases/0.43.0/linux/x64/droid into ${folder} ` +
        `(expected ${join(folder, 'droid')})`,
    );
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'droid'), '#!/bin/sh\n');
    chmodSync(join(folder, 'droid'), 0o755);
    expect(resolveOn('factory-droid', linux())).toMatchObject({
      command: join(folder, 'droid'),
      args: ['exec', '--output-format', 'acp'],
      env: { DROID_DISABLE_AUTO_UPDATE: 'true' },
    });
    expect(() => resolveOn('factory-droid', { ...linux(), arch: 'arm64' })).toThrow(
      'registry agent "factory-droid" has no binary for linux-aarch64',
    );
    expect(() => resolveOn('factory-droid', { ...linux(), platform: 'freebsd' })).toThrow(
      'registry agent "factory-droid" has no binary for freebsd-x64',
    );
  });

  it('an unknown id, no snapshot, or no kind it can run: a clear error', () => {
    expect(() => resolveOn('nope', linux())).toThrow(
      'agent "mine": no agent "nope" in the ACP Registry snapshot',
    );
    expect(() =>
      launchableAgent('mine', AgentConfig.parse({ registry: 'gemini' }), () => null, linux()),
    ).toThrow(/no snapshot was imported \(gatehouse agents import-registry <file>\)/);
    const future = Registry.parse({
      version: '2.0.0',
      agents: [
        { id: 'later', name: 'L', version: '1.0.0', description: 'd', distribution: { oci: {} } },
      ],
    });
    expect(() =>
      launchableAgent('mine', AgentConfig.parse({ registry: 'later' }), () => future, linux()),
    ).toThrow(RegistryAgentError);
  });

  it('an agent with its own command is left as it is', () => {
    const config = AgentConfig.parse({ command: 'opencode', args: ['acp'] });
    const agent = launchableAgent('o', config, () => {
      throw new Error('not read');
    });
    expect(agent).toEqual(config);
    expect(launchFamily('o', agent)).toBe('opencode');
  });
});

describe('a registry package whose program is not its default one (`cmd`)', () => {
  const withCmd = (distribution: object) =>
    Registry.parse({
      version: '1.0.0',
      agents: [{ id: 'tools', name: 'Tools', version: '1.2.0', description: 'd', distribution }],
    });
  const resolveWith = (distribution: object, extra: object = {}) =>
    launchableAgent(
      'mine',
      AgentConfig.parse({ registry: 'tools', ...extra }),
      () => withCmd(distribution),
      linux(),
    );

  it('npx runs the named program of the package, the registry args and the agent own after it', () => {
    const agent = resolveWith(
      { npx: { package: '@google/gemini-cli@0.27.3', cmd: 'gemini-acp', args: ['--acp'] } },
      { args: ['-v'] },
    );
    expect(agent).toMatchObject({
      command: 'npx',
      args: ['--package', '@google/gemini-cli@0.27.3', '--yes', 'gemini-acp', '--acp', '-v'],
      env: { npm_config_prefer_offline: 'true' },
    });
    // What the sandbox fetches is that package and that program, and the agent is still known.
    expect(launcherCall(agent.command, agent.args)).toMatchObject({
      tool: 'npx',
      spec: '@google/gemini-cli@0.27.3',
      name: '@google/gemini-cli',
      bin: 'gemini-acp',
      args: ['--acp', '-v'],
    });
    expect(knownProgramFor(agent.command, agent.args)).not.toBeNull();
  });

  it('an npx package side door is recognised with a cmd as without', () => {
    const agent = resolveWith({ npx: { package: 'opencode-ai@1.18.33', cmd: 'opencode' } });
    expect(launchFamily('mine', agent)).toBe('opencode');
  });

  it('uvx runs it --from the package, its version written as a requirement', () => {
    const agent = resolveWith({
      uvx: { package: 'mistral-vibe@2.0.2', cmd: 'vibe-acp', args: ['serve'] },
    });
    expect(agent).toMatchObject({
      command: 'uvx',
      args: ['--from', 'mistral-vibe==2.0.2', 'vibe-acp', 'serve'],
    });
    expect(launcherCall(agent.command, agent.args)).toMatchObject({
      tool: 'uvx',
      spec: 'mistral-vibe==2.0.2',
      name: 'mistral-vibe',
      bin: 'vibe-acp',
      args: ['serve'],
    });
    expect(resolveWith({ uvx: { package: 'fast-agent-acp==0.2.1', cmd: 'fast' } }).args).toEqual([
      '--from',
      'fast-agent-acp==0.2.1',
      'fast',
    ]);
  });

  it.each([
    ['../bin/sh'],
    ['/bin/sh'],
    ['bin/agent'],
    ['-c'],
    ['--registry=http://evil'],
    ['.hidden'],
    ['agent acp'],
    ['agent;touch x'],
    ['$(touch x)'],
    ['`id`'],
    ['a|b'],
    ['a>b'],
    ['agent\nx'],
    ['agent\u0000'],
    [''],
    ['a'.repeat(101)],
  ])(
    'a snapshot whose entry has the cmd %j is refused whole, naming it, and nothing runs',
    (cmd) => {
      for (const kind of ['npx', 'uvx']) {
        const text = JSON.stringify({
          version: '1.0.0',
          agents: [
            {
              id: 'tools',
              name: 'Tools',
              version: '1.2.0',
              description: 'd',
              distribution: { [kind]: { package: 'tools@1.2.0', cmd } },
            },
          ],
        });
        let refused: unknown = null;
        try {
          launchableAgent('mine', AgentConfig.parse({ registry: 'tools' }), () =>
            parseRegistry(text, 'registry.json'),
          );
        } catch (error) {
          refused = error;
        }
        expect(refused).toBeInstanceOf(RegistryFileError);
        expect((refused as RegistryFileError).problems).toEqual([
          expect.stringMatching(new RegExp(`^agents\\.0\\.distribution\\.${kind}\\.cmd: `)),
        ]);
      }
    },
  );

  it('a cmd that is a plain program name is accepted as written', () => {
    for (const cmd of ['claude-agent-acp', 'vibe_acp', 'agent.js', 'A1', 'x'.repeat(100)]) {
      expect(resolveWith({ npx: { package: 'tools@1.2.0', cmd } }).args[3]).toBe(cmd);
    }
  });
});

describe('an agent in settings', () => {
  const problems = (input: unknown) => {
    const parsed = AgentConfig.safeParse(input);
    return parsed.success
      ? []
      : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  const either =
    'command: an agent has either "command" (the program to run) or "registry" (an ACP Registry id), not both';

  it('has either a command or a registry id', () => {
    expect(problems({ command: 'x' })).toEqual([]);
    expect(problems({ registry: 'gemini', sandbox: 'off', args: ['-v'] })).toEqual([]);
    expect(problems({})).toEqual([either]);
    expect(problems({ command: 'x', registry: 'gemini' })).toEqual([either]);
    expect(problems({ registry: '../gemini' })).toEqual([
      'registry: registry id: lowercase letters, digits and -, starting with a letter',
    ]);
  });
});
