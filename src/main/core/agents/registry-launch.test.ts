import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Registry } from '../../../shared/registry-format';
import { AgentConfig } from '../../../shared/settings';
import { registryFixture } from '../../../../test/support/registry-fixture';
import { knownProgramFor } from '../sandbox/known-agents';
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
