// `gatehouse hook install|uninstall claude-code|gemini`: adds Gatehouse's hook to the CLI's settings
// file (the user's, or a project's), or removes exactly the hook it added. Everything else in the
// file — other keys, other hooks, another PreToolUse hook — stays as it was. The file is kept as a
// backup beside it before each change, and written whole through a temporary file.
import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import {
  ALL_TOOLS,
  HOOK_EVENT,
  hookCommand,
  isGatehouseHook,
  settingsFileFor,
} from '../../main/core/agents/hook-settings';
import { EXIT, type CliIo } from '../io';
import { CLI_NAME, type HookCli } from './formats';
import { HOOK_TIMEOUT_SECONDS } from './run';

export const HOOK_INSTALL_HELP = `Usage: gatehouse hook install|uninstall claude-code|gemini [--user | --project <dir>]

Adds Gatehouse's hook to Claude Code (a PreToolUse hook) or Gemini CLI (a BeforeTool hook), so
that every tool call they run is asked of Gatehouse; uninstall removes exactly that hook.

  --user            ~/.claude/settings.json or ~/.gemini/settings.json (the default)
  --project <dir>   <dir>/.claude/settings.json or <dir>/.gemini/settings.json

The file is backed up beside it (settings.json.gatehouse-backup) before each change. Installing
again changes nothing. The hook runs this installation of gatehouse by its absolute path.`;

type Json = Record<string, unknown>;

function hookEntry(cli: HookCli, command: string): Json {
  return cli === 'claude-code'
    ? { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }
    : { type: 'command', command, name: 'gatehouse', timeout: HOOK_TIMEOUT_SECONDS * 1000 };
}

function readSettings(file: string): Json | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const value: unknown = text.trim() === '' ? {} : JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${file} does not hold a JSON object`);
  return value as Json;
}

function objectAt(parent: Json, key: string, file: string): Json {
  const value = parent[key] ?? {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${file}: ${key} is not an object`);
  return value as Json;
}

function groupsAt(hooks: Json, event: string, file: string): Json[] {
  const value = hooks[event] ?? [];
  if (!Array.isArray(value)) throw new Error(`${file}: hooks.${event} is not a list`);
  return value as Json[];
}

function save(file: string, existed: boolean, settings: Json): void {
  mkdirSync(join(file, '..'), { recursive: true });
  if (existed) copyFileSync(file, `${file}.gatehouse-backup`);
  const temporary = join(file, '..', `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** What changed, in a sentence, or throws naming what is wrong with the file. */
export function installHook(cli: HookCli, file: string, entry: string): string {
  const settings = readSettings(file);
  const root = settings ?? {};
  const hooks = objectAt(root, 'hooks', file);
  const groups = groupsAt(hooks, HOOK_EVENT[cli], file);
  const wanted = hookEntry(cli, hookCommand(cli, entry));
  const ours = groups
    .flatMap((group) => (Array.isArray(group['hooks']) ? (group['hooks'] as unknown[]) : []))
    .find((hook) => isGatehouseHook(cli, hook));
  if (ours && JSON.stringify(ours) === JSON.stringify(wanted))
    return `already installed in ${file}`;
  if (ours) Object.assign(ours as Json, wanted);
  else groups.push({ matcher: ALL_TOOLS[cli], hooks: [wanted] });
  hooks[HOOK_EVENT[cli]] = groups;
  root['hooks'] = hooks;
  save(file, settings !== null, root);
  return `${ours ? 'updated' : 'installed'} in ${file}`;
}

export function uninstallHook(cli: HookCli, file: string): string {
  const settings = readSettings(file);
  if (settings === null) return `nothing to remove: ${file} does not exist`;
  const hooks = objectAt(settings, 'hooks', file);
  const groups = groupsAt(hooks, HOOK_EVENT[cli], file);
  let removed = 0;
  const kept = groups.flatMap((group) => {
    const list = group['hooks'];
    if (!Array.isArray(list)) return [group];
    const others = list.filter((hook) => !isGatehouseHook(cli, hook));
    removed += list.length - others.length;
    if (others.length === list.length) return [group];
    return others.length === 0 ? [] : [{ ...group, hooks: others }];
  });
  if (removed === 0) return `nothing to remove in ${file}`;
  // What Gatehouse added alone goes with it: an empty list, then an empty hooks object.
  if (kept.length > 0) hooks[HOOK_EVENT[cli]] = kept;
  else delete hooks[HOOK_EVENT[cli]];
  if (Object.keys(hooks).length > 0) settings['hooks'] = hooks;
  else delete settings['hooks'];
  save(file, true, settings);
  return `removed from ${file}`;
}

/** The gatehouse this process runs as (bin/gatehouse.mjs), by its real absolute path. */
export function thisEntry(): string {
  const entry = process.argv[1];
  if (!entry || !/gatehouse\.mjs$/.test(entry))
    throw new Error('run as gatehouse (bin/gatehouse.mjs): the hook must name it by its path');
  return realpathSync(entry);
}

export function hookInstall(
  action: 'install' | 'uninstall',
  cli: HookCli,
  options: { project?: string; entry?: string },
  io: CliIo,
): number {
  const file = settingsFileFor(cli, options.project, io.env['HOME'] || homedir());
  try {
    const said =
      action === 'install'
        ? installHook(cli, file, options.entry ?? thisEntry())
        : uninstallHook(cli, file);
    io.out(`${CLI_NAME[cli]} hook ${said}`);
    return EXIT.ok;
  } catch (error) {
    io.err(`gatehouse hook ${action}: ${(error as Error).message}`);
    return EXIT.failed;
  }
}
