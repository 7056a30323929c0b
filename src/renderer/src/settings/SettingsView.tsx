// The settings window: grants, rules, agents and the general settings, over one settings file;
// which terminal CLIs are hooked; the paired devices.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommandOutput } from '../../../shared/contract';
import type { AgentInfo, PermissionPolicy } from '../../../shared/domain';
import type { Settings } from '../../../shared/settings';
import { useApi } from '../api/context';
import { useWhenStreamOpens } from '../connection/stream-open';
import { AgentsSection } from './AgentsSection';
import { DevicesSection } from './DevicesSection';
import { GeneralSection } from './GeneralSection';
import { GrantsSection } from './GrantsSection';
import { RegistrySection } from './RegistrySection';
import { HooksSection } from './HooksSection';
import { RulesSection } from './RulesSection';
import { OverriddenNotice } from './OverriddenNote';
import { SettingsFileNotice } from './SettingsFileNotice';
import { SupportSection } from './SupportSection';
import { useSettingsUpdate } from './use-settings-update';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Notice';
import './SettingsView.css';

type Loaded = CommandOutput<'getSettings'>;

const SECTIONS = [
  ['sv-grants', 'Grants'],
  ['sv-rules', 'Rules'],
  ['sv-agents', 'Agents'],
  ['sv-registry', 'ACP registry'],
  ['sv-general', 'General'],
  ['sv-hooks', 'Terminal CLIs'],
  ['sv-devices', 'Devices'],
  ['sv-support', 'Support'],
] as const;

export function SettingsView() {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [policies, setPolicies] = useState<PermissionPolicy[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fileRevision, setFileRevision] = useState(0);
  const shown = useRef<Loaded | null>(null);
  useEffect(() => {
    shown.current = loaded;
  }, [loaded]);

  const reload = useCallback(() => {
    api.call('getSettings', {}).then(setLoaded, (e: Error) => setError(e.message));
    api.call('listAgents', {}).then(setAgents, () => undefined);
  }, [api]);

  // Whatever changed while the event stream was down (from the file, another window, before a
  // restart) is read now; a form holding what the settings said before starts again from what they
  // say now, as after a change of the file.
  useWhenStreamOpens(api, () => {
    api.call('getSettings', {}).then(
      (now) => {
        const before = shown.current?.settings;
        setLoaded(now);
        setError(null);
        if (before && JSON.stringify(before) !== JSON.stringify(now.settings))
          setFileRevision((n) => n + 1);
      },
      (e: Error) => setError(e.message),
    );
    api.call('listAgents', {}).then(setAgents, () => undefined);
  });

  useEffect(() => {
    reload();
    api.call('health', {}).then(
      (h) => setPolicies(h.supportedPolicies),
      () => undefined,
    );
    // Changed elsewhere (settings.json on disk, another window): shown as it is now.
    return api.subscribe((event) => {
      if (event.type !== 'settings_changed') return;
      reload();
      // A form holding what the file said before starts again from what it says now.
      if (event.from === 'file') setFileRevision((n) => n + 1);
    });
  }, [api, reload]);

  const applied = useCallback(
    (out: Loaded) => {
      setLoaded(out);
      api.call('listAgents', {}).then(setAgents, () => undefined);
    },
    [api],
  );
  const { update: save, prompt } = useSettingsUpdate({ onApplied: applied, onDismiss: reload });
  // The sections show what came of a change under the control that made it.
  const update = useCallback(
    async (patch: (settings: Settings) => void) => {
      if ((await save(patch)) === 'waiting')
        throw new Error('Not applied yet: it waits for a confirmation where Gatehouse runs.');
    },
    [save],
  );

  return (
    <div className="sv">
      <header className="sv-head">
        <div>
          <h2>Settings</h2>
          {loaded && (
            <p className="sv-path">
              Saved in <code>{loaded.path}</code>
            </p>
          )}
        </div>
        <nav className="sv-jump" aria-label="Settings sections">
          {SECTIONS.map(([id, label]) => (
            <Button
              key={id}
              variant="ghost"
              onClick={() =>
                document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' })
              }
            >
              {label}
            </Button>
          ))}
        </nav>
      </header>
      {error && <Notice tone="error">The settings could not be loaded: {error}</Notice>}
      {loaded && <SettingsFileNotice loaded={loaded} />}
      {loaded && <OverriddenNotice overridden={loaded.overridden} path={loaded.managed?.path} />}
      {prompt}
      <GrantsSection />
      <RulesSection onChanged={reload} managed={loaded?.managed ?? null} />
      {loaded && (
        <>
          <AgentsSection
            settings={loaded.settings}
            agents={agents}
            overridden={loaded.overridden}
            update={update}
            onChanged={reload}
          />
          <RegistrySection settings={loaded.settings} update={update} />
          <GeneralSection
            key={fileRevision}
            settings={loaded.settings}
            supportedPolicies={policies}
            restartNeeded={loaded.restartNeeded}
            overridden={loaded.overridden}
            update={update}
          />
        </>
      )}
      <HooksSection />
      <DevicesSection />
      <SupportSection />
    </div>
  );
}
