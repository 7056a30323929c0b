// A watched hook judged against its install: is the file still as `gatehouse hook install` left it
// where it matters (intact), does the CLI no longer ask Gatehouse (lost), or does it ask but with
// something added that runs or approves without Gatehouse (weakened)? And what that means against
// what was last audited: which change, if any, to record. Pure: the watcher reads, this decides.
import { HOOK_CHANGES_MAX, type HookChange, type HookStatus } from '../../../shared/hooked-clis';
import { hookFingerprint, MODE_KEY, NON_ASKING_MODES } from './hook-facts';
import type { HookInspection } from './hooked-clis';
import type { HookInstall } from './hook-installs';

export interface Judgement {
  status: HookStatus;
  /** What differs from the install, in sentences; empty while intact. */
  changes: string[];
}

/** Added hooks named one by one, at most. */
const NAMED_HOOKS = 5;

function lostBy(seen: HookInspection): string | null {
  if (seen.kind === 'missing') return 'the settings file was deleted';
  if (seen.kind === 'unreadable') return `the settings file changed so that ${seen.reason}`;
  if (seen.facts.hooksOff !== null) return seen.facts.hooksOff;
  if (seen.hooks.length === 0) return "Gatehouse's hook was removed";
  if (!seen.hooks.some((hook) => hook.here)) {
    const command = seen.hooks[0]!.command.slice(0, 300);
    return `Gatehouse's hook was changed: it runs ${command}, or not for every tool`;
  }
  return null;
}

/** The file against the install it should still hold. */
export function judgeHook(install: HookInstall, seen: HookInspection): Judgement {
  const lost = lostBy(seen);
  if (lost !== null) return { status: 'lost', changes: [lost] };
  if (seen.kind !== 'read') return { status: 'lost', changes: ['the settings file is gone'] };
  const changes: string[] = [];
  const { mode, otherHooks } = seen.facts;
  if (
    mode !== null &&
    mode !== install.baseline.mode &&
    NON_ASKING_MODES[install.cli].includes(mode)
  )
    changes.push(`${MODE_KEY[install.cli]} was set to ${mode}: the CLI runs tools without asking`);
  const known = new Set(install.baseline.otherHooks);
  const added = otherHooks.filter((hook) => !known.has(hookFingerprint(hook)));
  for (const hook of added.slice(0, NAMED_HOOKS))
    changes.push(`a ${hook.event} hook was added: ${hook.command}`);
  if (added.length > NAMED_HOOKS)
    changes.push(`and ${added.length - NAMED_HOOKS} more hooks were added`);
  return {
    status: changes.length === 0 ? 'intact' : 'weakened',
    changes: changes.slice(0, HOOK_CHANGES_MAX),
  };
}

/** What was last audited of a file (or null: nothing yet). */
export interface Known {
  change: HookChange;
  status: HookStatus;
  changes: string[];
}

const sameChanges = (a: string[], b: string[]): boolean =>
  a.length === b.length && a.every((line, i) => line === b[i]);

/**
 * The change to audit between what was last audited and the file's judgement now (null: its
 * install is forgotten), or null when nothing changed that matters. Bursts of writes that end where
 * they began record nothing, and so does an install run again over a hook that was intact: only
 * what changes the judgement is a change.
 */
export function classifyChange(known: Known | null, now: Judgement | null): HookChange | null {
  const watched = known !== null && known.change !== 'uninstalled';
  if (now === null) return watched ? 'uninstalled' : null;
  const { status, changes } = now;
  if (!watched) return status === 'intact' ? 'installed' : status;
  if (known.status === status && sameChanges(known.changes, changes)) return null;
  return status === 'intact' ? 'restored' : status;
}
