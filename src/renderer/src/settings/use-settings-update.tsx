// One way to change the settings from any view: read the saved settings again, apply a change, save
// them whole. From a browser, a change that chooses the program Gatehouse starts (or loosens a
// sandbox) is not applied until a person confirms it where Gatehouse runs; the prompt for that
// comes with the hook, to show where the change was made.
import { useCallback, useState, type ReactNode } from 'react';
import type { CommandOutput, SettingsConfirmation } from '../../../shared/contract';
import type { Settings } from '../../../shared/settings';
import { useApi } from '../api/context';
import { ConfirmChange } from './ConfirmChange';

type SettingsSaved = CommandOutput<'confirmSettingsChange'>;

interface Options {
  /** The change is in force: at once, or once confirmed where Gatehouse runs. */
  onApplied(out: SettingsSaved): void;
  /** The person closed the prompt; the change may still be confirmed where Gatehouse runs. */
  onDismiss?(): void;
}

export interface SettingsUpdate {
  /**
   * Applies `patch` to the settings saved right now (read again, so a change saved meanwhile, even
   * one that waits for a restart, is not overwritten) and saves them whole. Throws the core's error,
   * verbatim; 'waiting' when the change waits for a local confirmation.
   */
  update(patch: (settings: Settings) => void): Promise<'applied' | 'waiting'>;
  /** The confirmation prompt while a change waits for one, else null. */
  prompt: ReactNode;
}

export function useSettingsUpdate({ onApplied, onDismiss }: Options): SettingsUpdate {
  const api = useApi();
  const [waiting, setWaiting] = useState<SettingsConfirmation | null>(null);

  const update = useCallback(
    async (patch: (settings: Settings) => void) => {
      const next = structuredClone((await api.call('getSettings', {})).settings);
      patch(next);
      const out = await api.call('updateSettings', { settings: next });
      if (out.confirmation) {
        setWaiting(out.confirmation);
        return 'waiting' as const;
      }
      onApplied(out);
      return 'applied' as const;
    },
    [api, onApplied],
  );

  const prompt = waiting && (
    <ConfirmChange
      confirmation={waiting}
      onApplied={(out) => {
        setWaiting(null);
        onApplied(out);
      }}
      onDismiss={() => {
        setWaiting(null);
        onDismiss?.();
      }}
    />
  );
  return { update, prompt };
}
