// What else in a terminal CLI's settings file decides whether Gatehouse's hook gates it: a key that
// turns hooks off, a default mode that does not ask, and every other hook (which runs code of its
// own, outside any sandbox). Read from a file already bounded and parsed (hooked-clis.ts); every
// value is checked for its type here, as an agent may have written any of it.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { HookCli } from '../../../shared/hooked-clis';
import { HOOK_EVENT, isGatehouseHook } from './hook-settings';

/** Other hooks reported per file, and characters kept of each. */
const MAX_OTHER_HOOKS = 200;
const MAX_HOOK_CHARS = 300;
const MAX_NAME_CHARS = 100;

/**
 * Modes in which the CLI runs tools without asking the person (Claude Code's
 * `permissions.defaultMode`, Gemini CLI's `general.defaultApprovalMode`).
 */
export const NON_ASKING_MODES: Record<HookCli, readonly string[]> = {
  'claude-code': ['bypassPermissions', 'acceptEdits', 'dontAsk'],
  gemini: ['yolo', 'auto_edit'],
};
export const MODE_KEY: Record<HookCli, string> = {
  'claude-code': 'permissions.defaultMode',
  gemini: 'general.defaultApprovalMode',
};

export interface OtherHook {
  event: string;
  /** Its command, or what the hook is when it has none (bounded). */
  command: string;
}

export interface HookFacts {
  /** Why no hook runs (or Gatehouse's is switched off by name), or null. */
  hooksOff: string | null;
  /** The default permission mode as written (bounded), or null when none is. */
  mode: string | null;
  otherHooks: OtherHook[];
}

const Section = z.looseObject({}).optional().catch(undefined);
const Settings = z.looseObject({
  disableAllHooks: z.unknown().optional(),
  permissions: Section,
  general: Section,
  hooksConfig: Section,
  hooks: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

function stringAt(section: Record<string, unknown> | undefined, key: string): string | null {
  const value = section?.[key];
  return typeof value === 'string' ? value.slice(0, MAX_NAME_CHARS) : null;
}

function hooksOff(cli: HookCli, settings: z.infer<typeof Settings>): string | null {
  // Claude Code runs no hook at all while this is set, Gatehouse's included.
  if (cli === 'claude-code')
    return settings.disableAllHooks === true ? 'disableAllHooks is set: no hook runs' : null;
  const config = settings.hooksConfig;
  if (config?.['enabled'] === false) return 'hooksConfig.enabled is false: no hook runs';
  // Gemini CLI skips a hook whose name (install names it "gatehouse") or command is listed here.
  const disabled = Array.isArray(config?.['disabled']) ? (config['disabled'] as unknown[]) : [];
  const named = disabled.some(
    (name) =>
      name === 'gatehouse' ||
      isGatehouseHook(cli, { command: typeof name === 'string' ? name : '' }),
  );
  return named ? "hooksConfig.disabled names Gatehouse's hook: it does not run" : null;
}

function describe(hook: unknown): string {
  const command = (hook as Record<string, unknown> | null)?.['command'];
  if (typeof command === 'string') return command.slice(0, MAX_HOOK_CHARS);
  let text: string;
  try {
    text = JSON.stringify(hook) ?? String(hook);
  } catch {
    text = String(hook);
  }
  return text.slice(0, MAX_HOOK_CHARS);
}

/** Every hook in the file except Gatehouse's own in the event it gates. */
function otherHooks(cli: HookCli, hooks: Record<string, unknown>): OtherHook[] {
  const found: OtherHook[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups as unknown[]) {
      const list = (group as Record<string, unknown> | null)?.['hooks'];
      if (!Array.isArray(list)) continue;
      for (const hook of list as unknown[]) {
        if (event === HOOK_EVENT[cli] && isGatehouseHook(cli, hook)) continue;
        found.push({ event: event.slice(0, MAX_NAME_CHARS), command: describe(hook) });
        if (found.length >= MAX_OTHER_HOOKS) return found;
      }
    }
  }
  return found;
}

/** The facts of a parsed settings object (anything that is not one yields none). */
export function hookFacts(cli: HookCli, value: unknown): HookFacts {
  const parsed = Settings.safeParse(value);
  if (!parsed.success) return { hooksOff: null, mode: null, otherHooks: [] };
  const settings = parsed.data;
  const modeSection = cli === 'claude-code' ? settings.permissions : settings.general;
  return {
    hooksOff: hooksOff(cli, settings),
    mode: stringAt(modeSection, cli === 'claude-code' ? 'defaultMode' : 'defaultApprovalMode'),
    otherHooks: otherHooks(cli, settings.hooks ?? {}),
  };
}

/** A hook's identity as install records it: a hash, so the record holds no one's commands. */
export function hookFingerprint(hook: OtherHook): string {
  return createHash('sha256').update(`${hook.event}\0${hook.command}`).digest('hex');
}
