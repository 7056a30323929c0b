// The ACP agents installed on this machine, found on the PATH Gatehouse runs with, so that the
// first screen can offer them instead of a command line to type. Only a fixed table of known launch
// lines is looked for: nothing on the machine decides what is offered or how it is started.
// They are the person's agents: Gatehouse's own install folders are not searched. Started by an npm
// script, Gatehouse has its checkout's node_modules/.bin (and each parent folder's) first on its
// PATH, where its own test dependencies (gemini, claude, codex-acp) would be "found".
import { constants, realpathSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../fs/containment';
import { installedGatehouse } from './hooked-clis';

export interface FoundAgent {
  /** The agent id it is added under (the id the known agents' sandbox defaults are keyed by). */
  id: string;
  name: string;
  /** The program found, as an absolute path. */
  command: string;
  args: string[];
  /** What the person should know before adding it. */
  note: string | null;
}

interface Launch {
  id: string;
  name: string;
  program: string;
  args: string[];
  note?: string;
  /** What runs it without an install: the npm package and the arguments of its ACP mode. */
  npx?: string[];
}

const LAUNCHES: readonly Launch[] = [
  {
    id: 'gemini',
    name: 'Gemini CLI',
    program: 'gemini',
    args: ['--acp'],
    npx: ['@google/gemini-cli', '--acp'],
  },
  {
    id: 'claude',
    name: 'Claude Code (claude-agent-acp)',
    program: 'claude-agent-acp',
    args: [],
    npx: ['@agentclientprotocol/claude-agent-acp'],
  },
  // Both codex-acp packages install the program `codex-acp`; the registry's is the renamed one.
  {
    id: 'codex',
    name: 'Codex (codex-acp)',
    program: 'codex-acp',
    args: [],
    npx: ['@agentclientprotocol/codex-acp'],
  },
  { id: 'qwen', name: 'Qwen Code', program: 'qwen', args: ['--experimental-acp'] },
  { id: 'goose', name: 'goose', program: 'goose', args: ['acp'] },
  {
    id: 'opencode',
    name: 'opencode',
    program: 'opencode',
    args: ['acp'],
    note: 'opencode also approves requests from any local program; Gatehouse starts it only with "allowUnguarded": true.',
  },
];

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The first executable of that name in the folders. */
async function which(program: string, folders: readonly string[]): Promise<string | null> {
  for (const folder of folders) {
    const path = join(folder, program);
    if (await executable(path)) return path;
  }
  return null;
}

/** Where this install lives (the folder of bin/gatehouse.mjs), or null for a packaged app. */
export function installRoot(): string | null {
  const entry = installedGatehouse();
  return entry ? dirname(dirname(entry)) : null;
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/**
 * The PATH's folders that are the person's: absolute (a relative one resolves against wherever
 * Gatehouse was started), not inside Gatehouse's install, and not a `node_modules/.bin` of a folder
 * above it (npm puts those first for a script of a package in a subfolder).
 */
export function userPathFolders(path: string, installRoot: string | null): string[] {
  const folders = [...new Set(path.split(delimiter).filter((f) => f && isAbsolute(f)))];
  if (installRoot === null) return folders;
  const root = real(installRoot);
  return folders.filter((folder) => {
    const at = real(folder);
    if (isInside(at, root)) return false;
    const isBin = basename(at) === '.bin' && basename(dirname(at)) === 'node_modules';
    return !(isBin && isInside(root, dirname(dirname(at))));
  });
}

/**
 * The known agents found on `path` (outside `installRoot`), in the table's order; those already
 * configured are left out.
 */
export async function agentsOnPath(
  path: string,
  configured: ReadonlySet<string>,
  installRoot: string | null = null,
): Promise<FoundAgent[]> {
  const folders = userPathFolders(path, installRoot);
  const found = await Promise.all(
    LAUNCHES.filter((l) => !configured.has(l.id)).map(async (l) => {
      const command = await which(l.program, folders);
      return command
        ? { id: l.id, name: l.name, command, args: [...l.args], note: l.note ?? null }
        : null;
    }),
  );
  return found.filter((a): a is FoundAgent => a !== null);
}

/** Every known agent: the program found on `path`, or else how it runs without an install. */
export async function knownAgents(
  path: string,
  installRoot: string | null,
): Promise<(FoundAgent & { found: boolean })[]> {
  const folders = userPathFolders(path, installRoot);
  return Promise.all(
    LAUNCHES.map(async (l) => {
      const found = await which(l.program, folders);
      const [command, args] = found
        ? [found, l.args]
        : l.npx
          ? ['npx', l.npx]
          : [l.program, l.args];
      return {
        id: l.id,
        name: l.name,
        command,
        args: [...args],
        found: found !== null,
        note: l.note ?? null,
      };
    }),
  );
}
