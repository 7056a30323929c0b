// The core as an entry starts it: settings.json and the managed policy are read first, so that what
// is wrong with them stops the start before anything listens, and the rest (the store's threads, the
// shell parser, leftover agents, grants, paired clients, the hooks' check) is made while the server
// already answers /api/health as "starting". Nothing is decided before rules, grants and the audit
// are ready: the server holds every other request until `ready`.
import { setImmediate as turn } from 'node:timers/promises';
import type { CommandOutput } from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import { healthAnswer } from './commands/health';
import { resolveManaged } from './config/managed-overrides';
import { readManagedPolicy } from './config/managed-settings';
import { loadSettings } from './config/settings-file';
import type { Core, CoreOptions } from './core';
import { validatePolicyConfig } from './mediator';

export interface CoreStarting {
  /** The settings in force (the managed policy's values in place): where the server listens. */
  readonly settings: Settings;
  /** The core, once it decides; rejects with why it could not start. */
  readonly ready: Promise<Core>;
  /**
   * Builds the core: called once the server listens, so that the store's threads and the shell
   * grammar start while it already answers, not before.
   */
  begin(): void;
  /** /api/health's answer until then. */
  health(): CommandOutput<'health'>;
}

/**
 * Resolves two turns of the event loop later: a connection that came in meanwhile is accepted in
 * the first and its request read and answered in the second.
 */
async function nextTurn(): Promise<void> {
  for (let i = 0; i < 2; i++) await turn();
}

/**
 * The core's own modules, loaded after the listen, not with the entry: their schemas and packages
 * cost more to load than the rest of the start (docs/ARCHITECTURE.md, Start). Loading a module graph
 * is synchronous from its first file to its last evaluation, and the server answers nothing
 * meanwhile; so the ACP SDK, the largest part, is loaded in a turn of its own, and between the steps
 * the server answers what reached it (/api/health, the renderer's files).
 */
async function loadCore() {
  await nextTurn();
  await import('@agentclientprotocol/sdk');
  await nextTurn();
  const core = await import('./core');
  await nextTurn();
  return core;
}

/** Throws (SettingsError, InvalidPolicyConfigError) when the start must stop before it listens. */
export function startCore(options: CoreOptions): CoreStarting {
  const managed =
    options.managed !== undefined
      ? options.managed
      : readManagedPolicy(options.managedSettingsPath);
  const read = options.settings ?? loadSettings(options.home);
  const { settings } = resolveManaged(read, managed);
  // The core warns of an odd policy itself; here it only has to be valid.
  const { policy } = validatePolicyConfig(settings.policy, () => {});
  let begin!: () => void;
  const ready = new Promise<Core>((resolve, reject) => {
    let begun = false;
    begin = () => {
      if (begun) return;
      begun = true;
      loadCore()
        .then(({ createCore }) =>
          createCore({
            ...options,
            managed,
            ...(options.settings ? {} : { fileSettings: read }),
          }),
        )
        .then(resolve, reject);
    };
  });
  // Awaited by the entry once it listens; a failure before then is not an unhandled one.
  ready.catch(() => undefined);
  return { settings, ready, begin, health: () => healthAnswer(policy, 0, ['decisions']) };
}
