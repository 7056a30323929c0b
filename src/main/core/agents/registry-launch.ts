// What an agent declared as `registry: <id>` runs: the snapshot's npx or uvx package, or its binary
// for this platform when the person has unpacked it. Nothing is downloaded here: an npx or uvx
// package is fetched where the agent is launched, outside its sandbox (sandbox/launcher-fetch.ts),
// and a binary archive is never fetched.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Registry, RegistryAgent, RegistryPlatform } from '../../../shared/registry-format';
import type { AgentConfig, LaunchableAgent } from '../../../shared/settings';
import { BadRequestError } from '../errors';
import { isInside } from '../fs/containment';
import { loadRegistrySnapshot, RegistryFileError } from './registry-snapshot';

export class RegistryAgentError extends Error {
  override name = 'RegistryAgentError';
}

const OS: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'darwin',
  linux: 'linux',
  win32: 'windows',
};
const ARCH: Partial<Record<string, string>> = { arm64: 'aarch64', x64: 'x86_64' };

/** process.platform and process.arch as the registry names them, or null for a platform it has no key for. */
export function registryPlatform(platform: NodeJS.Platform, arch: string): RegistryPlatform | null {
  const os = OS[platform];
  const cpu = ARCH[arch];
  return os && cpu ? (`${os}-${cpu}` as RegistryPlatform) : null;
}

/**
 * Where a registry binary is expected, unpacked by the person: outside the data folder, which the
 * sandbox hides from agents.
 */
export function registryBinaryFolder(
  agent: Pick<RegistryAgent, 'id' | 'version'>,
  userHome = homedir(),
): string {
  return join(userHome, '.gatehouse', 'agents', agent.id, agent.version);
}

export interface RegistryHost {
  platform: NodeJS.Platform;
  arch: string;
  userHome: string;
}

const thisHost = (): RegistryHost => ({
  platform: process.platform,
  arch: process.arch,
  userHome: homedir(),
});

/**
 * `--from` takes a requirement, where a version is written `==`; the registry writes uvx packages
 * as `name@version` (the form uvx takes for a package's own command). Anything else is left as it
 * is, for the launcher's own check to refuse or follow.
 */
function pypiRequirement(spec: string): string {
  const pinned = /^([A-Za-z0-9][A-Za-z0-9._-]*)@([0-9][A-Za-z0-9.!+-]*)$/.exec(spec);
  return pinned ? `${pinned[1]}==${pinned[2]}` : spec;
}

interface Resolved {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function fromDistribution(agent: RegistryAgent, host: RegistryHost): Resolved {
  const { npx, uvx, binary } = agent.distribution;
  // Every option comes before the package: npx and uvx hand what follows it to the agent. The
  // package stays among the first two words, where the known agents (Gemini CLI's ask policy) and
  // side doors are recognised; npm reads "prefer its cache" from the environment instead. With a
  // `cmd` the registry names the program to run (FORMAT.md: `npx --package <package> <cmd>`,
  // `uvx --from <package> <cmd>`), and it comes right after the options.
  if (npx) {
    const args = npx.cmd ? ['--package', npx.package, '--yes', npx.cmd] : ['--yes', npx.package];
    return {
      command: 'npx',
      args: [...args, ...npx.args],
      env: { npm_config_prefer_offline: 'true', ...npx.env },
    };
  }
  if (uvx) {
    const args = uvx.cmd ? ['--from', pypiRequirement(uvx.package), uvx.cmd] : [uvx.package];
    return { command: 'uvx', args: [...args, ...uvx.args], env: uvx.env };
  }
  if (!binary)
    throw new RegistryAgentError(
      `registry agent "${agent.id}" has no distribution Gatehouse can run (npx, uvx or binary)`,
    );
  const platform = registryPlatform(host.platform, host.arch);
  const target = platform ? binary[platform] : undefined;
  if (!target) {
    throw new RegistryAgentError(
      `registry agent "${agent.id}" has no binary for ${platform ?? `${host.platform}-${host.arch}`}`,
    );
  }
  const folder = registryBinaryFolder(agent, host.userHome);
  const command = resolve(folder, target.cmd);
  if (!isInside(command, folder))
    throw new RegistryAgentError(`registry agent "${agent.id}": its cmd leaves its folder`);
  if (!existsSync(command)) {
    throw new RegistryAgentError(
      `registry agent "${agent.id}" ${agent.version} is a binary Gatehouse does not download: unpack ${
        target.archive ?? 'its archive'
      } into ${folder} (expected ${command})`,
    );
  }
  return { command, args: [...target.args], env: target.env };
}

/**
 * The agent as it is started. An agent with its own `command` is returned as it is; a registry
 * agent gets the registry's command and arguments (its own `args` after them) and the registry's
 * environment under its own. Every other setting (sandbox, env, mode, Bypass) is the agent's.
 */
export function launchableAgent(
  agentId: string,
  config: AgentConfig,
  registry: () => Registry | null,
  host: RegistryHost = thisHost(),
): LaunchableAgent {
  if (config.command !== undefined) return { ...config, command: config.command };
  const id = config.registry;
  const snapshot = registry();
  if (!snapshot) {
    throw new RegistryAgentError(
      `agent "${agentId}" comes from the ACP Registry, and no snapshot was imported (gatehouse agents import-registry <file>)`,
    );
  }
  const entry = snapshot.agents.find((agent) => agent.id === id);
  if (!entry)
    throw new RegistryAgentError(
      `agent "${agentId}": no agent "${id}" in the ACP Registry snapshot`,
    );
  const resolved = fromDistribution(entry, host);
  return {
    ...config,
    name: config.name ?? entry.name,
    command: resolved.command,
    args: [...resolved.args, ...config.args],
    env: { ...resolved.env, ...config.env },
  };
}

const stopsRegistryAgent = (error: unknown): error is Error =>
  error instanceof RegistryAgentError || error instanceof RegistryFileError;

/** The agent as a session starts it; a registry agent that cannot be resolved is a start error. */
export function registryLaunch(
  agentId: string,
  config: AgentConfig,
  home: string,
): LaunchableAgent {
  try {
    return launchableAgent(agentId, config, () => loadRegistrySnapshot(home));
  } catch (error) {
    if (stopsRegistryAgent(error))
      throw new BadRequestError(`agent "${agentId}" did not start: ${error.message}`);
    throw error;
  }
}

/** An agent's name and command line as shown (settings, confirmations): the registry's when it resolves. */
export function shownLaunch(
  agentId: string,
  config: AgentConfig,
  home: string,
): { name: string; command: string; args: string[] } {
  try {
    const { name, command, args } = launchableAgent(agentId, config, () =>
      loadRegistrySnapshot(home),
    );
    return { name: name ?? agentId, command, args };
  } catch (error) {
    if (!stopsRegistryAgent(error)) throw error;
    return {
      name: config.name ?? agentId,
      command: `registry:${config.registry}`,
      args: config.args,
    };
  }
}
