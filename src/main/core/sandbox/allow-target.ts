// "Allow this for this agent" after a refusal of its sandbox: the folder of a refused write joins
// the agent's allowWrite, a refused host:port its network allow list, a Unix socket its
// allowUnixSockets. Some targets are never offered, whoever asks: they would open what the sandbox
// exists to keep closed.
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { HostEntry, UnixSocketEntry } from '../../../shared/sandbox-settings';
import type { AgentConfig } from '../../../shared/settings';
import { isInside } from '../fs/containment';
import { SECRETS_IN_HOME } from './profile';

export interface AllowTargetInput {
  kind: 'write' | 'connect' | 'socket';
  target: string;
}

export interface AllowTargetContext {
  gatehouseHome: string;
  /** The user's HOME, and the one the agent runs with when its settings set another. */
  homes: string[];
}

export class TargetRefused extends Error {}

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[(::1?|::ffff:127\.[\d.]+)\])$/i;

/** The folder to make writable for a refused write of `target`; throws TargetRefused. */
export function writableFolderFor(target: string, context: AllowTargetContext): string {
  if (!isAbsolute(target) || target.includes('\0'))
    throw new TargetRefused('the target must be an absolute path');
  let folder: string;
  try {
    // The real folder: a link must not stand in for one of the folders refused below.
    folder = realpathSync(dirname(resolve(target)));
  } catch {
    throw new TargetRefused(`the folder of ${target} does not exist`);
  }
  if (folder === '/') throw new TargetRefused('the whole file system cannot be made writable');
  const homes = context.homes.map((home) => realOrResolved(home));
  for (const home of homes) {
    if (isInside(home, folder))
      throw new TargetRefused(`${folder} would make the whole home folder writable`);
  }
  const closed = [
    realOrResolved(context.gatehouseHome),
    ...homes.flatMap((home) => SECRETS_IN_HOME.map((dir) => join(home, dir))),
  ];
  for (const path of closed) {
    // Inside it, or a folder that holds it: either way it would be writable.
    if (isInside(folder, path) || isInside(path, folder)) {
      throw new TargetRefused(
        `${folder} would open ${path}, which the sandbox always keeps closed`,
      );
    }
  }
  return folder;
}

/** The `host:port` entry for a refused connection; throws TargetRefused. */
export function hostEntryFor(target: string): string {
  const entry = HostEntry.safeParse(target);
  if (!entry.success || entry.data.startsWith('*') || !/:\d{1,5}$/.test(entry.data)) {
    throw new TargetRefused('the target must be host:port');
  }
  const port = Number(/:(\d+)$/.exec(entry.data)![1]);
  if (port < 1 || port > 65535) throw new TargetRefused('the port must be 1-65535');
  const host = entry.data.slice(0, entry.data.lastIndexOf(':'));
  // The sandbox never reaches this machine's own ports (Gatehouse's among them).
  if (LOCAL_HOST.test(host)) throw new TargetRefused('a local address cannot be allowed');
  return entry.data.toLowerCase();
}

/**
 * The entry for a Unix socket the agent may use: its real path, which must be a socket now. Never
 * one in Gatehouse's folder (its control socket, the network bridge's).
 */
export function socketEntryFor(target: string, context: AllowTargetContext): string {
  if (!isAbsolute(target) || !UnixSocketEntry.safeParse(target).success)
    throw new TargetRefused('the target must be the absolute path of a Unix socket');
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw new TargetRefused(`${target} does not exist`);
  }
  if (!UnixSocketEntry.safeParse(real).success || !lstatSync(real).isSocket())
    throw new TargetRefused(`${target} is not a Unix socket`);
  const home = realOrResolved(context.gatehouseHome);
  if (isInside(real, home) || isInside(target, resolve(context.gatehouseHome)))
    throw new TargetRefused(`${real} is Gatehouse's own socket`);
  return real;
}

/** The agent's settings with the target allowed, and the entry added (unchanged when already there). */
export function allowTarget(
  agent: AgentConfig,
  input: AllowTargetInput,
  context: AllowTargetContext,
): { agent: AgentConfig; entry: string } {
  if (input.kind === 'write') {
    const entry = writableFolderFor(input.target, context);
    const allowWrite = agent.allowWrite.includes(entry)
      ? agent.allowWrite
      : [...agent.allowWrite, entry];
    return { agent: { ...agent, allowWrite }, entry };
  }
  // A refused connection to a path (the sandbox's report of a Unix socket) allows that socket.
  if (input.kind === 'socket' || (input.kind === 'connect' && input.target.startsWith('/'))) {
    const entry = socketEntryFor(input.target, context);
    const known = agent.allowUnixSockets;
    const allowUnixSockets = known.includes(entry) ? known : [...known, entry];
    return { agent: { ...agent, allowUnixSockets }, entry };
  }
  const entry = hostEntryFor(input.target);
  const network = agent.network;
  if (network === 'all') return { agent, entry };
  const allow = network === undefined || network === 'none' ? [] : network.allow;
  return {
    agent: { ...agent, network: { allow: allow.includes(entry) ? allow : [...allow, entry] } },
    entry,
  };
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
