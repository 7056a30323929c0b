// settings.json changed on disk while Gatehouse runs: what it now says is in force, audited as a
// change made from the settings file. A file that does not validate changes nothing: the last good
// settings stay, and why is shown in Settings, written to the log and audited, until it is fixed.
import type { SettingsFileRead } from '../config/settings-watch';
import { resolveManaged } from '../config/managed-overrides';
import { settingsChanges } from '../config/settings-diff';
import { SettingsError } from '../config/settings-file';
import { logger } from '../log/logger';
import { InvalidPolicyConfigError } from '../mediator';
import { canonicalJson } from '../store/canonical';
import type { CommandServices, SettingsService } from './services';

const log = logger('settings');

/** How the audit names a change nobody made through Gatehouse. */
export const FROM_SETTINGS_FILE = 'settings file';

type Services = SettingsService & Pick<CommandServices, 'store' | 'pipeline' | 'bus' | 'now'>;

/**
 * What validation beyond the schema says (rules, the mediator policy). What the managed policy
 * forbids is not a refusal here: its values replace the user's (`replaceSettings`).
 */
function refusal(services: Services, read: SettingsFileRead): string[] | null {
  if (!read.ok) return read.problems;
  try {
    services.checkSettings(read.settings, { fromFile: true });
    return null;
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    if (error instanceof InvalidPolicyConfigError) return [error.message];
    throw error;
  }
}

export function settingsReload(services: Services): (read: SettingsFileRead) => Promise<void> {
  const { store, bus } = services;
  return async (read) => {
    const file = read.ok ? undefined : read.file;
    // Shown and audited as a list a person can read through.
    const problems = refusal(services, read)
      ?.slice(0, 100)
      .map((p) => (p.length > 4000 ? `${p.slice(0, 3999)}…` : p));
    if (problems) {
      const known = services.fileProblem();
      // The same broken file saved twice is one problem, audited once.
      if (known && canonicalJson(known.problems) === canonicalJson(problems)) return;
      const where = file ?? known?.file ?? 'settings.json';
      services.setFileProblem({ file: where, problems, since: services.now() });
      log.warn(
        `${where} changed and is not used (the last good settings stay in force):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      );
      store.recordEvent({
        type: 'settings_file_refused',
        payload: { from: FROM_SETTINGS_FILE, file: where, problems },
      });
      await store.flush();
      bus.publish({ type: 'settings_changed', from: 'file' });
      return;
    }
    if (!read.ok) return;
    const fixed = services.fileProblem() !== null;
    services.setFileProblem(null);
    const before = services.savedSettings();
    // Compared as they would be in force: a setting the managed policy replaces did not change.
    const resolved = resolveManaged(read.settings, services.managed);
    const changes = settingsChanges(before, resolved.settings);
    const newlyOverridden =
      canonicalJson(resolved.overrides) !== canonicalJson(services.overridden());
    if (Object.keys(changes).length > 0 || newlyOverridden) {
      // The overrides are audited here, each time the file is read anew.
      const restartNeeded = services.replaceSettings(read.settings, { write: false });
      if (Object.keys(changes).length > 0) {
        log.info(`settings.json changed on disk: ${Object.keys(changes).join(', ')}`);
        store.recordEvent({
          type: 'settings_changed',
          payload: { changes, from: FROM_SETTINGS_FILE, restartNeeded },
        });
      }
      await store.flush();
      // New rules, modes or Bypass apply to the requests already waiting too.
      services.pipeline.rejudgePending();
    } else if (!fixed) return;
    bus.publish({ type: 'settings_changed', from: 'file' });
  };
}
