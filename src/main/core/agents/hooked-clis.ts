// Which terminal CLIs run Gatehouse's hook: the user's settings file of each (~/.claude/settings.json,
// ~/.gemini/settings.json), read only, bounded, never trusted. The agent runs as the same user and
// may have written these files: a file that is not a small regular JSON object is "unreadable", and
// only a hook that runs exactly this installation, for every tool, counts as this installation's.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { HOOK_CLIS, type HookCli, type HookedCli } from '../../../shared/hooked-clis';
import { hookFacts, type HookFacts } from './hook-facts';
import {
  ALL_TOOLS,
  HOOK_EVENT,
  isGatehouseHook,
  quoteWord,
  runsEntry,
  settingsFileFor,
} from './hook-settings';

/** A settings file is a few kilobytes; anything larger is not read. */
export const HOOK_SETTINGS_MAX_BYTES = 256 * 1024;
/** Hook commands reported per CLI, and characters per command. */
const MAX_COMMANDS = 10;
const MAX_COMMAND_CHARS = 1000;

const Group = z.looseObject({ matcher: z.string().max(4096).optional(), hooks: z.unknown() });
const SettingsJson = z.looseObject({ hooks: z.record(z.string(), z.unknown()).optional() });

type Read = { text: string } | { missing: true } | { unreadable: string };

/** The file's text: a regular file (never a FIFO or device, which could block or never end), bounded. */
function readBounded(file: string): Read {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { missing: true }
      : { unreadable: `cannot be opened (${code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { unreadable: 'is not a regular file' };
    if (stat.size > HOOK_SETTINGS_MAX_BYTES)
      return { unreadable: `is larger than ${HOOK_SETTINGS_MAX_BYTES / 1024} KiB` };
    const buffer = Buffer.alloc(HOOK_SETTINGS_MAX_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n)
      n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > HOOK_SETTINGS_MAX_BYTES)
      return { unreadable: `is larger than ${HOOK_SETTINGS_MAX_BYTES / 1024} KiB` };
    return { text: buffer.subarray(0, length).toString('utf8') };
  } catch (error) {
    return { unreadable: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}

function parse(text: string): z.infer<typeof SettingsJson> | string {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  const settings = SettingsJson.safeParse(value);
  return settings.success ? settings.data : 'is not a settings object (or its hooks are not one)';
}

/** Gatehouse's hook commands in the CLI's event, each with whether it runs `entry` for every tool. */
function gatehouseHooks(cli: HookCli, hooks: Record<string, unknown>, entry: string | null) {
  const groups = z.array(Group).safeParse(hooks[HOOK_EVENT[cli]] ?? []);
  if (!groups.success) return null;
  return groups.data.flatMap((group) => {
    const list = Array.isArray(group.hooks) ? (group.hooks as unknown[]) : [];
    const everyTool = [undefined, '', ALL_TOOLS[cli]].includes(group.matcher);
    return list
      .filter((hook) => isGatehouseHook(cli, hook))
      .map((hook) => {
        const command = (hook as { command: string }).command;
        const here = entry !== null && everyTool && runsEntry(cli, command, entry);
        return { command: command.slice(0, MAX_COMMAND_CHARS), here };
      });
  });
}

/** What a settings file holds for the hook, read bounded; never throws. */
export type HookInspection =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'read'; hooks: { command: string; here: boolean }[]; facts: HookFacts };

export function inspectHookFile(cli: HookCli, file: string, entry: string | null): HookInspection {
  const read = readBounded(file);
  if ('missing' in read) return { kind: 'missing' };
  if ('unreadable' in read) return { kind: 'unreadable', reason: `it ${read.unreadable}` };
  const settings = parse(read.text);
  if (typeof settings === 'string') return { kind: 'unreadable', reason: `it ${settings}` };
  const hooks = gatehouseHooks(cli, settings.hooks ?? {}, entry);
  if (!hooks)
    return { kind: 'unreadable', reason: `its hooks.${HOOK_EVENT[cli]} is not a list of groups` };
  return { kind: 'read', hooks, facts: hookFacts(cli, settings) };
}

function detect(cli: HookCli, file: string, entry: string | null) {
  const seen = inspectHookFile(cli, file, entry);
  if (seen.kind === 'missing')
    return { state: 'not-hooked' as const, reason: 'the file does not exist' };
  if (seen.kind === 'unreadable') return { state: 'unreadable' as const, reason: seen.reason };
  const found = seen.hooks;
  const commands = found.slice(0, MAX_COMMANDS).map((hook) => hook.command);
  if (seen.facts.hooksOff !== null)
    return { state: 'not-hooked' as const, reason: seen.facts.hooksOff, commands };
  if (found.length === 0) return { state: 'not-hooked' as const, commands };
  return { state: 'hooked' as const, commands, thisInstallation: found.some((hook) => hook.here) };
}

/** What to run to install the hook: this installation's gatehouse, by path when it is known. */
function installCommand(cli: HookCli, entry: string | null, project?: string): string {
  const where = project === undefined ? '' : ` --project ${quoteWord(project)}`;
  return `${entry === null ? 'gatehouse' : quoteWord(entry)} hook install ${cli}${where}`;
}

/** What the settings view shows of one file, before Gatehouse's watch of it is added. */
export type HookFileState = Omit<HookedCli, 'scope' | 'watch'>;

/** One settings file and whether it runs Gatehouse's hook (`project`: a project's file). */
export function hookFileState(
  cli: HookCli,
  file: string,
  entry: string | null,
  project?: string,
): HookFileState {
  const { commands = [], thisInstallation = false, ...rest } = detect(cli, file, entry);
  return {
    cli,
    file,
    ...rest,
    commands,
    thisInstallation,
    installCommand: installCommand(cli, entry, project),
  };
}

/** Each CLI's user-level settings file and whether it runs Gatehouse's hook. Never throws. */
export function hookedClis(home: string, entry: string | null): HookFileState[] {
  return HOOK_CLIS.map((cli) => hookFileState(cli, settingsFileFor(cli, undefined, home), entry));
}

/**
 * This installation's `bin/gatehouse.mjs` (by its real path, as install writes it), found above this
 * module whether it runs from the sources or the build; null when there is none (a packaged app).
 */
export function installedGatehouse(from: string = import.meta.dirname): string | null {
  for (let folder = from, up = 0; up < 5; folder = dirname(folder), up += 1) {
    const entry = join(folder, 'bin', 'gatehouse.mjs');
    if (existsSync(entry)) {
      try {
        return realpathSync(entry);
      } catch {
        return null;
      }
    }
  }
  return null;
}
