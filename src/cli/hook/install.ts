// `gatehouse hook install|uninstall claude-code|gemini`: adds Gatehouse's hook to the CLI's settings
// file (the user's, or a project's), or removes exactly the hook it added. Everything else in the
// file — other keys, other hooks, another PreToolUse hook — stays as it was. The file is kept as a
// backup beside it before each change, and written whole through a temporary file. Each install is
// recorded in Gatehouse's data folder (hook-installs.json), so the core watches that file from then
// on and reports the hook lost or changed; uninstall forgets it first, so its own removal is not
// reported as a loss.
import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import {
  hookFingerprint,
  checkHookInstalls,
  forgetHookInstall,
  recordHookInstall,
  ALL_TOOLS,
  HOOK_EVENT,
  hookCommand,
  isGatehouseHook,
  settingsFileFor,
  inspectHookFile,
  resolveHome,
} from '../../main/core';
import { EXIT, type CliIo } from '../io';
import { CLI_NAME, type HookCli } from './formats';
import { HOOK_TIMEOUT_SECONDS } from './run';

export const HOOK_INSTALL_HELP = `Usage: gatehouse hook install|uninstall claude-code|gemini [--user | --project <dir>]

Adds Gatehouse's hook to Claude Code (a PreToolUse hook) or Gemini CLI (a BeforeTool hook), so
that every tool call they run is asked of Gatehouse; uninstall removes exactly that hook.

  --user            ~/.claude/settings.json or ~/.gemini/settings.json (the default)
  --project <dir>   <dir>/.claude/settings.json or <dir>/.gemini/settings.json

The file is backed up beside it (settings.json.gatehouse-backup) before each change. Installing
again changes nothing, except that a setting that keeps every hook (or Gatehouse's) from running is
removed. The hook runs this installation of gatehouse by its absolute path.

Gatehouse (on $GATEHOUSE_HOME) watches every file it was installed into: when the hook is removed
or changed, hooks are turned off, a mode that does not ask or another hook is added, it audits and
notifies. Installing again puts the hook back and accepts the file's other hooks as they are.`;

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
  const switchedOn = turnHooksOn(cli, root, file);
  if (ours && JSON.stringify(ours) === JSON.stringify(wanted) && switchedOn.length === 0)
    return `already installed in ${file}`;
  if (ours) Object.assign(ours as Json, wanted);
  else groups.push({ matcher: ALL_TOOLS[cli], hooks: [wanted] });
  hooks[HOOK_EVENT[cli]] = groups;
  root['hooks'] = hooks;
  save(file, settings !== null, root);
  const removed = switchedOn.length > 0 ? ` (removed ${switchedOn.join(', ')})` : '';
  return `${ours ? 'updated' : 'installed'} in ${file}${removed}`;
}

/**
 * Removes what keeps the hook from running at all (Claude Code's disableAllHooks, Gemini CLI's
 * hooksConfig.enabled false or Gatehouse's name in hooksConfig.disabled); names what it removed.
 */
function turnHooksOn(cli: HookCli, root: Json, file: string): string[] {
  if (cli === 'claude-code') {
    if (root['disableAllHooks'] !== true) return [];
    delete root['disableAllHooks'];
    return ['disableAllHooks'];
  }
  if (root['hooksConfig'] === undefined) return [];
  const config = objectAt(root, 'hooksConfig', file);
  const removed: string[] = [];
  if (config['enabled'] === false) {
    delete config['enabled'];
    removed.push('hooksConfig.enabled false');
  }
  const disabled = config['disabled'];
  if (Array.isArray(disabled)) {
    const kept = disabled.filter(
      (name) => name !== 'gatehouse' && !isGatehouseHook(cli, { command: name }),
    );
    if (kept.length !== disabled.length) {
      config['disabled'] = kept;
      removed.push("Gatehouse's hook from hooksConfig.disabled");
    }
  }
  return removed;
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

/** Installs and records it for the core's watch, with what the file holds beside the hook. */
function installAndRecord(
  cli: HookCli,
  file: string,
  entry: string,
  project: string | undefined,
  home: string,
): string {
  // A record that cannot take the install stops it before the CLI's file is touched.
  checkHookInstalls(home, cli, file);
  const said = installHook(cli, file, entry);
  const seen = inspectHookFile(cli, file, entry);
  const facts = seen.kind === 'read' ? seen.facts : { mode: null, otherHooks: [] };
  recordHookInstall(home, {
    cli,
    scope: project === undefined ? 'user' : 'project',
    file,
    ...(project === undefined ? {} : { project: resolve(project) }),
    entry,
    installedAt: Date.now(),
    baseline: { mode: facts.mode, otherHooks: [...new Set(facts.otherHooks.map(hookFingerprint))] },
  });
  return said;
}

export function hookInstall(
  action: 'install' | 'uninstall',
  cli: HookCli,
  options: { project?: string; entry?: string },
  io: CliIo,
): number {
  const file = settingsFileFor(cli, options.project, io.env['HOME'] || homedir());
  const home = resolveHome(io.env);
  try {
    let said: string;
    if (action === 'install') {
      said = installAndRecord(cli, file, options.entry ?? thisEntry(), options.project, home);
    } else {
      // Forgotten first, so the core does not take this removal for a loss; kept if it fails.
      const forgotten = forgetHookInstall(home, cli, file);
      try {
        said = uninstallHook(cli, file);
      } catch (error) {
        if (forgotten) recordHookInstall(home, forgotten);
        throw error;
      }
    }
    io.out(`${CLI_NAME[cli]} hook ${said}`);
    return EXIT.ok;
  } catch (error) {
    io.err(`gatehouse hook ${action}: ${(error as Error).message}`);
    return EXIT.failed;
  }
}
